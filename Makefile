# logoindex: see README.md. `make build` and `make test` are all a fresh
# machine with Go needs (with Node, Chromium and rsvg-convert, make test runs
# every test; .ci/run installs them, and `make tools` adds the S3 server of
# the publish tests).
GO      ?= go
SRC     ?= source-logos
OUT     ?= dist
# BASE_URL is where $(OUT) will be served; every URL in it starts with it.
# The default suits `make serve` only: publish refuses a tree built for it.
BASE_URL ?= http://localhost:8080
CHECK_FLAGS ?=

.PHONY: build check new test test-short tools publish release s3-local bench corpus fuzz serve stub stub-load clean

# logoindex runs the command with the arguments $(1), built into a
# temporary folder rather than with `go run`: a built binary exits with its
# own status (go run turns 2, bad usage, into 1), which make reports as
# "Error 1" or "Error 2", and Ctrl-C ends serve with status 130. $(2) names
# more programs to build beside it: publish runs ./cmd/logoindex-publish.
# They are built static (CGO_ENABLED=0): nothing in them needs cgo, and a
# static binary starts sooner, without the dynamic loader, which counts in
# a rebuild after one change.
define logoindex
@printf '%s\n' $(call shquote,logoindex $(strip $(1)))
@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT INT TERM && \
CGO_ENABLED=0 $(GO) build -o "$$tmp/" ./cmd/logoindex $(2) && "$$tmp/logoindex" $(1)
endef

# shquote quotes $(1) for the shell: the word it makes is exactly $(1),
# quotes, spaces, $ and all.
shquote = '$(subst ','\'',$(1))'

build:
	$(call logoindex,build -src $(SRC) -out $(OUT) -base-url $(BASE_URL))

check:
	$(call logoindex,check -src $(SRC) $(CHECK_FLAGS))

# new scaffolds $(SRC)/$(SLUG)/logo.yaml with every key and a comment for
# each (docs/cli.md#new), for example
#   make new SLUG=acme NAME="Acme" HEX="#FF5500" CATEGORY=devtools
# CATEGORY takes several, separated by commas; SOURCE=URL and
# LICENSE=SPDX-identifier fill those in too.
SLUG ?=
NAME ?=
HEX ?=
CATEGORY ?=
SOURCE ?=
LICENSE ?=
NEW_MISSING = $(subst $(space),$(comma) ,$(strip $(foreach v,SLUG NAME HEX CATEGORY,$(if $(strip $($(v))),,$(v)))))
comma := ,
space := $() $()
new:
	@test -z "$(NEW_MISSING)" || { echo 'make new needs $(NEW_MISSING); for example: make new SLUG=acme NAME="Acme" HEX="#FF5500" CATEGORY=devtools' >&2; exit 2; }
	$(call logoindex,new $(call shquote,$(SLUG)) -src $(call shquote,$(SRC)) -name $(call shquote,$(NAME)) -hex $(call shquote,$(HEX)) -category $(call shquote,$(CATEGORY)) \
	  $(if $(SOURCE),-source $(call shquote,$(SOURCE))) $(if $(LICENSE),-license $(call shquote,$(LICENSE))))

# serve builds $(OUT) from $(SRC) once, previews it at http://$(ADDR)/ with
# the headers of its _headers file (and Cache-Control: no-store), rebuilds
# when $(SRC) changes and reloads the open pages (a broken edit prints its
# problems, shows them over the open pages, and the last good tree stays).
# Ctrl-C ends it with status 130, as it ends build and check.
# SERVE_FLAGS="-log" prints every request.
ADDR ?= 127.0.0.1:8080
SERVE_FLAGS ?=
serve:
	$(call logoindex,serve -dir $(OUT) -addr $(ADDR) -watch -src $(SRC) -base-url $(BASE_URL) $(SERVE_FLAGS))

# test runs go vet and every test with the race detector. Where npm is
# installed it first installs the registry tests' pinned Node packages
# (tests/registry/node_modules, git-ignored; again only when the lock file
# changes). go build -v names each package as it compiles it, and
# internal/testprogress prints what go test prints, plus a line naming
# the running tests whenever 30 s pass without one. A test that skips for
# a missing tool leaves a note (package internal/testskip), and the last
# line sums the notes up with the command that provides each tool.
# PKGS="./generator" tests fewer packages.
PKGS ?= ./...
REGISTRY_MODULES := tests/registry/node_modules/.package-lock.json
test: $(if $(shell command -v npm 2>/dev/null),$(REGISTRY_MODULES))
	@echo "compiling (go build -v names each package it compiles; none when all are cached)"
	@$(GO) build -v $(PKGS) && $(GO) build -race -v $(PKGS) && $(GO) build -o /dev/null ./internal/testprogress
	$(GO) vet $(PKGS)
	@echo "$(GO) test -race -count=1 -timeout 30m $(PKGS)"
	@$(call run_tests,-race -count=1 -timeout 30m $(PKGS))

# test-short runs the quick tests: the pixel, browser and rebuild suites
# skip under -short.
test-short:
	@echo "$(GO) test -short $(PKGS)"
	@$(call run_tests,-short $(PKGS))

# run_tests runs go test with the arguments $(1) through testprogress,
# sums up the skip notes, and exits with go test's status.
run_tests = notes=$$(mktemp) status=$$(mktemp) && trap 'rm -f "$$notes" "$$status"' EXIT INT TERM && \
	{ LOGOINDEX_SKIP_NOTES="$$notes" $(GO) test -json $(1); echo $$? > "$$status"; } | $(GO) run ./internal/testprogress; \
	sort -u "$$notes" | awk -F '\t' '$(SKIP_SUMMARY)'; \
	exit $$(cat "$$status")

# SKIP_SUMMARY turns the notes (tool, install command, test; one a line)
# into one line: "make test: skipped TestA, TestB (no chromium: apt-get
# install chromium); ...".
SKIP_SUMMARY = { k = $$1 ": " $$2; if (!(k in tests)) { order[n++] = k; tests[k] = $$3 } else tests[k] = tests[k] ", " $$3 } \
	END { if (n) { printf "make test: skipped"; for (i = 0; i < n; i++) printf "%s %s (no %s)", (i ? ";" : ""), tests[order[i]], order[i]; print "" } }

$(REGISTRY_MODULES): tests/registry/package.json tests/registry/package-lock.json
	@npm ci --prefix tests/registry --no-audit --no-fund && touch $@ || \
	echo "make test: npm ci --prefix tests/registry failed; the registry's Node tests will skip"

# tools installs what the tests need besides Go into a cache outside the
# repo: versitygw, the S3 server the publish tests run on a loopback port
# (they skip, naming this target, without it). .ci/run runs it.
TOOLS_BIN ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/logoindex-tools/bin
VERSITYGW_VERSION ?= v1.8.0
tools:
	@if $(GO) version -m "$(TOOLS_BIN)/versitygw" 2>/dev/null | grep -Eq "^\s+mod\s+github.com/versity/versitygw\s+$(VERSITYGW_VERSION)\s"; then \
	  echo "versitygw $(VERSITYGW_VERSION) is in $(TOOLS_BIN)"; \
	else \
	  echo "installing versitygw $(VERSITYGW_VERSION) into $(TOOLS_BIN)"; \
	  GOBIN="$(TOOLS_BIN)" $(GO) install github.com/versity/versitygw/cmd/versitygw@$(VERSITYGW_VERSION); \
	fi

# publish builds $(OUT) for BASE_URL and uploads it to the bucket TO (see
# docs/publishing.md), for example
#   make publish BASE_URL=https://logos.example.com TO='s3://my-bucket?region=eu-west-1'
# PUBLISH_FLAGS=-dry-run lists what would change.
TO ?=
PUBLISH_FLAGS ?=
publish:
	@test -n "$(TO)" || { echo "make publish needs TO=<bucket URL>, for example TO='s3://my-bucket?region=eu-west-1'" >&2; exit 2; }
	$(call logoindex,build -src $(SRC) -out $(OUT) -base-url $(BASE_URL))
	$(call logoindex,publish -dir $(OUT) -to '$(TO)' -base-url $(BASE_URL) $(PUBLISH_FLAGS),./cmd/logoindex-publish)

# s3-local runs versitygw, the S3 server of the publish tests (make tools
# installs it), on S3_ADDR, a loopback address, with its posix backend in
# a temporary folder that holds one bucket, S3_BUCKET (with that backend a
# bucket is a folder). It prints the -to URL of the bucket and the keys to
# export, made afresh each run, and runs until Ctrl-C, which stops it and
# removes the folder with all it holds. docs/publishing.md has the recipe.
S3_ADDR ?= 127.0.0.1:7070
S3_BUCKET ?= logos
S3_LOCAL_TO = s3://$(S3_BUCKET)?endpoint=http://$(S3_ADDR)&region=us-east-1&use_path_style=true
s3-local:
	@test -x "$(TOOLS_BIN)/versitygw" || { echo "make s3-local needs versitygw in $(TOOLS_BIN): run make tools" >&2; exit 2; }
	@command -v curl >/dev/null || { echo "make s3-local needs curl, to wait for the server" >&2; exit 2; }
	@tmp=$$(mktemp -d) && pid= && \
	trap 'test -z "$$pid" || { kill $$pid 2>/dev/null; wait $$pid; }; rm -rf "$$tmp"' EXIT && trap 'exit 130' INT TERM && \
	mkdir "$$tmp/$(S3_BUCKET)" && \
	key=$$(od -An -N10 -tx1 /dev/urandom | tr -d ' \n') && secret=$$(od -An -N20 -tx1 /dev/urandom | tr -d ' \n') && \
	{ ROOT_ACCESS_KEY_ID=$$key ROOT_SECRET_ACCESS_KEY=$$secret "$(TOOLS_BIN)/versitygw" --port $(S3_ADDR) --quiet --health /health posix "$$tmp" >/dev/null & pid=$$!; } && \
	until curl -sf --max-time 1 -o /dev/null "http://$(S3_ADDR)/health"; do \
	  kill -0 $$pid 2>/dev/null || { pid=; echo "make s3-local: versitygw did not start on $(S3_ADDR); another S3_ADDR=127.0.0.1:PORT?" >&2; exit 1; }; \
	  sleep 0.1; \
	done && \
	printf '%s\n' "versitygw serves the bucket $(S3_BUCKET) at http://$(S3_ADDR), from $$tmp; Ctrl-C stops it and removes the folder." \
	  "In another shell, publish to it:" \
	  "  export AWS_ACCESS_KEY_ID=$$key AWS_SECRET_ACCESS_KEY=$$secret" \
	  "  make publish BASE_URL=https://logos.example.com TO='$(S3_LOCAL_TO)'" \
	  "and read an object's headers back (the bucket is private: curl signs the request):" \
	  "  curl -sI --aws-sigv4 aws:amz:us-east-1:s3 --user \"\$$AWS_ACCESS_KEY_ID:\$$AWS_SECRET_ACCESS_KEY\" -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' http://$(S3_ADDR)/$(S3_BUCKET)/api/logos.json" && \
	wait $$pid

# release builds the collection for BASE_URL/v/VERSION and publishes it as
# that pinned release under v/VERSION/ of the bucket TO, cached for ever,
# then lists it in api/releases.json (see docs/publishing.md), for example
#   make release VERSION=1.0.0 BASE_URL=https://logos.example.com TO='s3://my-bucket?region=eu-west-1'
# VERSION is a semantic version (a leading v is dropped) or a date
# (2026-05-01). RELEASE_FLAGS=-dry-run lists what would be uploaded.
VERSION ?=
RELEASE_FLAGS ?=
release:
	@test -n "$(VERSION)" || { echo "make release needs VERSION=<version>, for example VERSION=1.0.0 or VERSION=2026-05-01" >&2; exit 2; }
	@test "$(origin BASE_URL)" != file || { echo "make release needs BASE_URL=<the URL the bucket is served at>, for example BASE_URL=https://logos.example.com" >&2; exit 2; }
	@test -n "$(TO)" || { echo "make release needs TO=<bucket URL>, for example TO='s3://my-bucket?region=eu-west-1'" >&2; exit 2; }
	$(call logoindex,release -version '$(VERSION)' -src $(SRC) -base-url $(BASE_URL) -to '$(TO)' $(RELEASE_FLAGS),./cmd/logoindex-publish)

# bench compares the optimiser with SVGO and times the build against its
# goals (docs/performance.md). On first run it installs rsvg-convert and
# the pinned npm packages into a cache outside the repository. It prints
# one table, with each goal met or not, and writes bench/results.json after
# every step (Ctrl-C keeps what was measured, and prints it). QUICK=1
# measures every figure on a sample of 300 simple-icons files
# (bench/results-quick.json); SCALE=30 also builds 30 copies of
# simple-icons (104,100 logos). BENCH_FLAGS="-render=false" skips the
# visual comparison; "-runs 5" takes medians of five. Built, not `go run`,
# so that Ctrl-C ends it with its own status, 130.
QUICK ?=
SCALE ?=
BENCH_FLAGS ?=
bench:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT INT TERM && \
	$(GO) build -o "$$tmp/bench" ./bench && \
	"$$tmp/bench" $(if $(QUICK),-quick) $(if $(SCALE),-scale $(SCALE)) $(BENCH_FLAGS)

# corpus converts simple-icons, devicon and @lobehub/icons-static-svg (the
# versions bench/package-lock.json pins, installed into the bench cache)
# into source-logos trees as a newcomer would write them, runs check and
# build on each, and prints their problems by kind (docs/performance.md).
corpus:
	$(GO) run ./bench corpus

# fuzz runs every fuzz target for FUZZTIME each (go test allows one
# target per run). Crashers land in testdata/fuzz/ and become regression
# cases that plain `go test` replays.
FUZZTIME ?= 1m
fuzz:
	@set -e; for pkg in ./generator ./generator/ignore ./generator/svg ./deploystub ./internal/publish; do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$t"; $(GO) test $$pkg -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME); \
	  done; \
	done

# stub runs the deployments API stub on 127.0.0.1:8787 (flags and
# DEPLOYSTUB_* variables, or STUB_FLAGS="-verbose ...": see cmd/deploystub).
# Built, not `go run`, so that Ctrl-C ends it with its own exit status 0.
stub:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT INT TERM && \
	$(GO) build -o "$$tmp/deploystub" ./cmd/deploystub && "$$tmp/deploystub" $(STUB_FLAGS)

# Load check of the stub: both binaries built into a temporary directory,
# the stub started on 127.0.0.1 by the load generator, a bounded burst.
stub-load:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT INT TERM && \
	$(GO) build -o "$$tmp/" ./cmd/deploystub ./cmd/deploystub-load && \
	"$$tmp/deploystub-load" -stub "$$tmp/deploystub" -n 20000 -c 8 -timeout 30s

# clean removes the output, the build's state folder beside it, and the
# state files that earlier releases of logoindex kept beside it.
STATE_PREFIX = $(dir $(OUT)).$(notdir $(OUT))
clean:
	rm -rf $(OUT) $(STATE_PREFIX).logoindex $(STATE_PREFIX).cache $(STATE_PREFIX).cache-spare $(STATE_PREFIX).lock $(STATE_PREFIX)-standby test-output
