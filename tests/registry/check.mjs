// Node half of the registry tests; generator/registry_node_test.go drives it.
//
//   node check.mjs schema <dir>          validate <dir>/r/*.json against the
//                                        schemas of the shadcn package
//   node check.mjs render <jobs.json>    render components to static markup
//
// Both print one JSON document on stdout; the Go test makes the assertions.
import { readFileSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

const [cmd, arg] = process.argv.slice(2)
if (cmd === "schema") {
  console.log(JSON.stringify(await schema(arg)))
} else if (cmd === "render") {
  console.log(JSON.stringify(await render(JSON.parse(readFileSync(arg, "utf8")))))
} else {
  console.error("usage: node check.mjs schema <dist> | render <jobs.json>")
  process.exit(2)
}

// schema checks every item twice: with ajv against the JSON Schema of the
// shadcn package's own zod schemas (z.toJSONSchema, as ui.shadcn.com/schema
// publishes them), and with the zod schemas themselves, which is what
// `shadcn add` parses a fetched item with. Keys the schema does not know
// are reported too: zod strips them silently, so a typo would pass.
async function schema(dist) {
  const { registryItemSchema, registrySchema } = await import("shadcn/schema")
  const { z } = await import("zod")
  const { Ajv2020 } = await import("ajv/dist/2020.js")
  const addFormats = (await import("ajv-formats")).default
  const ajv = new Ajv2020({ allErrors: true, strict: false })
  addFormats(ajv)
  const itemJSON = z.toJSONSchema(registryItemSchema, { io: "input", unrepresentable: "any" })
  const indexJSON = z.toJSONSchema(registrySchema, { io: "input", unrepresentable: "any" })
  const validItem = ajv.compile(itemJSON)
  const validIndex = ajv.compile(indexJSON)
  const shadcn = JSON.parse(readFileSync(new URL("node_modules/shadcn/package.json", import.meta.url), "utf8"))

  const errors = []
  const report = (file, how, errs) => errors.push({ file, how, errors: errs })
  const unknownKeys = (file, obj, known, where) => {
    for (const k of Object.keys(obj)) if (!known.has(k)) report(file, "keys", [`${where}: unknown key ${k}`])
  }
  // The item schema is a union over the item type; every branch lists the
  // same common keys plus its own.
  const itemKeys = new Set(itemJSON.oneOf.flatMap((b) => Object.keys(b.properties)))
  const fileKeys = new Set(["path", "content", "type", "target"])

  const dir = join(dist, "r")
  let items = 0
  for (const name of readdirSync(dir).sort()) {
    const file = join("r", name)
    const data = JSON.parse(readFileSync(join(dir, name), "utf8"))
    if (name === "registry.json") {
      if (!validIndex(data)) report(file, "ajv", validIndex.errors)
      const parsed = registrySchema.safeParse(data)
      if (!parsed.success) report(file, "zod", parsed.error.issues)
      unknownKeys(file, data, new Set(Object.keys(indexJSON.properties)), "registry")
      for (const [i, it] of (data.items ?? []).entries()) {
        unknownKeys(file, it, itemKeys, `items[${i}]`)
        for (const f of it.files ?? []) unknownKeys(file, f, fileKeys, `items[${i}].files`)
      }
      continue
    }
    items++
    if (!validItem(data)) report(file, "ajv", validItem.errors)
    const parsed = registryItemSchema.safeParse(data)
    if (!parsed.success) report(file, "zod", parsed.error.issues)
    unknownKeys(file, data, itemKeys, "item")
    for (const f of data.files ?? []) unknownKeys(file, f, fileKeys, "files")
  }
  return { shadcn: shadcn.version, items, errors }
}

// render renders each job's component to static markup with
// react-dom/server: job.count instances side by side (one page), with
// job.props.
async function render(jobs) {
  const React = await import("react")
  const { renderToStaticMarkup } = await import("react-dom/server")
  const out = []
  for (const job of jobs) {
    try {
      const mod = await import(pathToFileURL(job.module).href)
      const C = mod[job.component]
      if (typeof C !== "function") throw new Error(`${job.module} does not export ${job.component}`)
      const els = Array.from({ length: job.count || 1 }, (_, i) => React.createElement(C, { key: i, ...job.props }))
      out.push({ markup: renderToStaticMarkup(React.createElement(React.Fragment, null, ...els)) })
    } catch (e) {
      out.push({ error: String(e?.stack ?? e) })
    }
  }
  return out
}
