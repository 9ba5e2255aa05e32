// Reloads the page when `logoindex serve -watch` has rebuilt the site. The
// preview server adds this script to the pages it serves; a build never
// writes it. The server sends the version of the tree when the stream
// opens and after every rebuild, so a page that was away (a reconnect, a
// restarted server) reloads too if it missed one.
(() => {
  "use strict";
  if (!window.EventSource || !document.currentScript) return;
  const events = new URL("events", document.currentScript.src);
  let version = null;
  new EventSource(events).addEventListener("version", (event) => {
    if (version === null) version = event.data;
    else if (event.data !== version) location.reload();
  });
})();
