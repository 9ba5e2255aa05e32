# logoindex: see README.md. `make build` and `make test` are all a fresh
# machine with Go needs.
GO      ?= go
SRC     ?= source-logos
OUT     ?= dist
BASE_URL ?= http://localhost:8080
CHECK_FLAGS ?=

.PHONY: build check test bench fuzz serve stub stub-load clean

build:
	$(GO) run ./cmd/logoindex build -src $(SRC) -out $(OUT) -base-url $(BASE_URL)

check:
	$(GO) run ./cmd/logoindex check -src $(SRC) $(CHECK_FLAGS)

test:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

stub:
	$(GO) run ./cmd/deploystub

clean:
	rm -rf $(OUT) $(OUT).* .$(OUT)-* test-output
