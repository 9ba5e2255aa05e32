// Reloads the page when `logoindex serve -watch` has rebuilt the site, and
// shows the problems of a failed build over it. The preview server adds
// this script to the pages it serves, with the version of the tree the
// page was read from (data-version); a build never writes it. The server
// sends the version of the tree when the stream opens and after every
// rebuild, so a page that was away (a reconnect, a restarted server), or
// whose rebuild ended before the stream opened, reloads too. While the
// last build has failed it sends its problems too, at once to a page that
// opens then; the next good build reloads the page, which clears them.
//
// The overlay is built from the DOM, every text of the build set as text,
// never as HTML, in a shadow root, so the page's styles and its own stay
// apart. Its stylesheet is overlay.css beside this script: the pages'
// Content-Security-Policy allows no inline style.
(() => {
  "use strict";
  if (!window.EventSource || !document.currentScript) return;
  const script = document.currentScript;
  const events = new URL("events", script.src);
  let version = script.dataset.version || null;
  let shown = null; // the report the overlay shows
  const source = new EventSource(events);
  source.addEventListener("version", (event) => {
    if (version === null) version = event.data;
    else if (event.data !== version) location.reload();
  });
  source.addEventListener("problems", (event) => {
    if (event.data === shown) return; // a reconnect sends it again
    shown = event.data;
    try {
      overlay().show(JSON.parse(event.data));
    } catch (err) {
      overlay().show({ errors: 1, problems: [{ severity: "error", message: "The build failed; see the terminal. (" + err.message + ")" }] });
    }
  });

  // el makes an element of the overlay, its text set as text.
  function el(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  const count = (n, one, many) => n + " " + (n === 1 ? one : many);

  // where is a problem's position as editors and terminals write it:
  // path:line:col, the parts that are known.
  function where(p) {
    let s = p.path || "";
    if (s && p.line > 0) {
      s += ":" + p.line;
      if (p.col > 0) s += ":" + p.col;
    }
    return s;
  }

  let theOverlay = null;
  // overlay makes the overlay on first use: its host element, hidden until
  // its stylesheet has loaded, so that it never shows unstyled.
  function overlay() {
    if (theOverlay) return theOverlay;
    const host = el("div");
    host.id = "logoindex-preview-overlay";
    host.hidden = true;
    const root = host.attachShadow({ mode: "open" });
    const css = el("link");
    css.rel = "stylesheet";
    css.href = new URL("overlay.css", script.src).href;
    let styled = false;
    css.addEventListener("load", () => { styled = true; host.hidden = !shown; });
    css.addEventListener("error", () => { styled = true; host.hidden = !shown; });
    const backdrop = el("div", "backdrop");
    const panel = el("section", "panel");
    panel.setAttribute("role", "alertdialog");
    panel.setAttribute("aria-labelledby", "title");
    panel.setAttribute("aria-describedby", "note");
    const close = el("button", "close", "Hide");
    close.type = "button";
    const hide = () => { host.hidden = true; };
    close.addEventListener("click", hide);
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !host.hidden) hide();
    });
    root.append(css, backdrop);
    backdrop.append(panel);
    (document.body || document.documentElement).append(host);
    theOverlay = {
      show(report) {
        panel.replaceChildren(...content(report, close));
        host.hidden = !styled;
      },
    };
    return theOverlay;
  }

  // content is what the overlay shows of a report: a heading with the
  // counts, a note, and each problem with its place, severity and message.
  function content(report, close) {
    const problems = report.problems || [];
    const counts = [];
    if (report.errors) counts.push(count(report.errors, "error", "errors"));
    if (report.warnings) counts.push(count(report.warnings, "warning", "warnings"));
    const head = el("header", "head");
    head.append(el("h2", "title", "Build failed" + (counts.length ? ": " + counts.join(", ") : "")), close);
    head.firstChild.id = "title";
    const note = el("p", "note", "The page shows the last good build. Fix the sources and save: the page reloads when a build succeeds.");
    note.id = "note";
    const list = el("ol", "problems");
    for (const p of problems) {
      const item = el("li", "problem " + (p.severity === "warning" ? "warning" : "error"));
      const line = el("p", "where");
      line.append(el("span", "severity", p.severity === "warning" ? "warning" : "error"));
      if (where(p)) line.append(el("code", "path", where(p)));
      if (p.code) line.append(el("span", "code", p.code));
      item.append(line, el("p", "message", p.message || ""));
      list.append(item);
    }
    const out = [head, note, list];
    const rest = (report.errors || 0) + (report.warnings || 0) - problems.length;
    if (rest > 0) out.push(el("p", "more", "… and " + count(rest, "more problem", "more problems") + ": the terminal lists them all."));
    return out;
  }
})();
