// Node half of the registry tests; generator/registry_node_test.go drives it.
//
//   node check.mjs schema <dir>          validate <dir>/r/*.json against the
//                                        schemas of the shadcn package
//   node check.mjs render <jobs.json>    render components to static markup
//   node check.mjs ast <dir>             parse <dir>/src/**/*.tsx with the
//                                        TypeScript compiler of <dir>/tsconfig.json
//   node check.mjs config <file>         validate a components.json against
//                                        the shadcn package's schema of it
//
// Each prints one JSON document on stdout; the Go tests make the assertions.
import { readFileSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

const [cmd, arg] = process.argv.slice(2)
if (cmd === "schema") {
  console.log(JSON.stringify(await schema(arg)))
} else if (cmd === "render") {
  console.log(JSON.stringify(await render(JSON.parse(readFileSync(arg, "utf8")))))
} else if (cmd === "ast") {
  console.log(JSON.stringify(await ast(arg)))
} else if (cmd === "config") {
  console.log(JSON.stringify(await config(arg)))
} else {
  console.error("usage: node check.mjs schema <dist> | render <jobs.json> | ast <dir> | config <components.json>")
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

// config parses a components.json with the schema shadcn reads it with
// (strict: an unknown key is an issue too).
async function config(file) {
  const { rawConfigSchema } = await import("shadcn/schema")
  const shadcn = JSON.parse(readFileSync(new URL("node_modules/shadcn/package.json", import.meta.url), "utf8"))
  const parsed = rawConfigSchema.safeParse(JSON.parse(readFileSync(file, "utf8")))
  return { shadcn: shadcn.version, issues: parsed.success ? [] : parsed.error.issues }
}

// render renders each job's component to static markup with
// react-dom/server: job.count instances side by side (one page), with
// job.props.
// pwned is set, if ever, by code a hostile value injected into a component
// (the hostile-value test puts globalThis.pwned = 1 in every field).
async function render(jobs) {
  const React = await import("react")
  const { renderToStaticMarkup } = await import("react-dom/server")
  const out = []
  for (const job of jobs) {
    globalThis.pwned = undefined
    try {
      const mod = await import(pathToFileURL(job.module).href)
      const C = mod[job.component]
      if (typeof C !== "function") throw new Error(`${job.module} does not export ${job.component}`)
      const els = Array.from({ length: job.count || 1 }, (_, i) => React.createElement(C, { key: i, ...job.props }))
      out.push({ markup: renderToStaticMarkup(React.createElement(React.Fragment, null, ...els)), pwned: globalThis.pwned !== undefined })
    } catch (e) {
      out.push({ error: String(e?.stack ?? e), pwned: globalThis.pwned !== undefined })
    }
  }
  return out
}

// ast parses every <dir>/src/**/*.tsx with the TypeScript compiler (its
// API, through the project <dir>/tsconfig.json) and reports for each file:
//   diagnostics  syntax errors
//   shape        every node's kind in document order, with the text of
//                identifiers: two files of the same shape have the same
//                code, whatever their comments and string values
//   comments     the text of every comment
//   strings      the value of every string, template and JSX text
//   free         identifiers that name a binding (not a property, an
//                attribute or a qualified member), with upper-case first
async function ast(dir) {
  const { API } = await import("typescript/unstable/sync")
  const { SyntaxKind } = await import("typescript/unstable/ast")
  const { getLeadingCommentRanges, getTrailingCommentRanges } = await import("typescript/unstable/ast/scanner")
  const api = new API({ cwd: dir })
  try {
    const snapshot = api.updateSnapshot({ openProject: join(dir, "tsconfig.json") })
    const program = snapshot.getProjects()[0].program
    const src = join(dir, "src") + "/"
    const stringKinds = new Set([SyntaxKind.StringLiteral, SyntaxKind.NoSubstitutionTemplateLiteral, SyntaxKind.TemplateHead,
      SyntaxKind.TemplateMiddle, SyntaxKind.TemplateTail, SyntaxKind.JsxText])
    // Identifiers in these places are names of members, not bindings.
    const memberOf = new Map([[SyntaxKind.PropertyAccessExpression, "name"], [SyntaxKind.QualifiedName, "right"],
      [SyntaxKind.PropertyAssignment, "name"], [SyntaxKind.PropertySignature, "name"], [SyntaxKind.JsxAttribute, "name"]])
    const files = {}
    for (const name of program.getSourceFileNames()) {
      if (!name.startsWith(src)) continue
      const sf = program.getSourceFile(name)
      const text = sf.text
      const shape = [], strings = [], free = new Set(), comments = new Map()
      const visit = (n) => {
        const id = n.kind === SyntaxKind.Identifier
        shape.push(SyntaxKind[n.kind] + (id ? ":" + n.text : ""))
        if (stringKinds.has(n.kind)) strings.push(n.text)
        if (id && /^[A-Z]/.test(n.text)) {
          const field = n.parent && memberOf.get(n.parent.kind)
          if (!field || n.parent[field]?.pos !== n.pos) free.add(n.text)
        }
        for (const r of [...(getLeadingCommentRanges(text, n.pos) ?? []), ...(getTrailingCommentRanges(text, n.end) ?? [])]) {
          comments.set(r.pos, text.slice(r.pos, r.end))
        }
        n.forEachChild(visit)
      }
      visit(sf)
      files[name.slice(src.length)] = {
        diagnostics: program.getSyntacticDiagnostics(name).map((d) => String(d.messageText?.messageText ?? d.messageText ?? d.text ?? JSON.stringify(d))),
        shape: shape.join(" "),
        comments: [...comments.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]),
        strings,
        free: [...free].sort(),
      }
    }
    return files
  } finally {
    api.close()
  }
}
