/* elo-explain's published pages (Voilà template "elo-explain"), loaded before Voilà's own code.
 *
 * 1. The shutdown beacon carries the page's token. Voilà sends a beacon when the page closes;
 *    the server shuts the kernel down only when the beacon carries the token that only this
 *    page's HTML holds (page config "eePageToken"). A "pagehide" beacon covers browsers that
 *    skip "beforeunload" (phones).
 * 2. A page whose kernel is gone says so in plain words and offers one link that reopens
 *    exactly the same view (the view's own "Link to this view"): at once when the server
 *    closes the page's websocket or announces a restart, else at the viewer's next action;
 *    also when the kernel's process is gone (nginx answers 502 for it).
 * 3. Uploads and pastes over a size limit (an element ".ee-limit" with data-bytes and
 *    data-message inside a box ".ee-limited") are stopped before anything is sent, with the
 *    same message the kernel would give, at any size.
 * 4. The view is told its width (its hidden box ".ee-viewport"), on load and when the window
 *    turns: the kernel lays its figures out for it (a phone: one column; FigureView.fit).
 * 5. Every control has an accessible name: a slider's handle, a box without a label of its
 *    own (its tooltip names it), and each figure's alt text, which the kernel keeps up to
 *    date in the image's tooltip (what the figure shows and its key numbers).
 * 6. "Copy link" beside "Link to this view" copies the view's full address.
 * 7. The language switch (nav.ee-langs) opens the same view in another language: each of its
 *    links gets the query of the view's "Link to this view" (the values the viewer set).
 * 8. The dock (.ee-dock, elo_explain.interactive.dock): a landmark named in the page's
 *    language; its button folds it to one line of values; on a phone it shows the controls
 *    of the tables in view (each live output's classes ee-dep-<trait>; none in view, or none
 *    of theirs docked: its first two), on a desktop all of them; it slides away while the view's own controls are on
 *    screen (back while the keyboard's focus is in it); the page (the box that scrolls) is
 *    padded by its height, so nothing is left under it at the end; "Go to the result" leads to the view's key number.
 */
(function () {
  "use strict";

  // the words this script shows, in the page's language: written by the template
  // (<script id="ee-words">, elo_explain.server.languages.page_words)
  const ENGLISH = {
    stopped: "This view has stopped.",
    why: "The server closed it after a while without use, or it was restarted. " +
         "Nothing you set is lost: the link below opens the same view again.",
    reopen: "Reopen this view",
    file: "the file",
    pasted: "pasted text",
  };
  let wordsCache = null;
  function words() {
    if (wordsCache === null) {
      const node = document.getElementById("ee-words");
      try {
        wordsCache = Object.assign({}, ENGLISH, node ? JSON.parse(node.textContent) : {});
      } catch (e) {
        wordsCache = ENGLISH;
      }
    }
    return wordsCache;
  }

  let configCache = null;
  function config() {
    if (configCache === null) {
      const node = document.getElementById("jupyter-config-data");
      try {
        configCache = node ? JSON.parse(node.textContent) : null;
      } catch (e) {
        configCache = null;
      }
    }
    return configCache || {};
  }

  // A link that reaches whoever opens it. Under JupyterHub a page's own address is its
  // visitor's server (/user/<name>/...), which refuses everyone else and ends when culled;
  // the hub's /hub/user-redirect/... reaches the opener's own server (eeShareBase: the
  // server's EE_SHARE_BASE, set by deploy/hub/singleuser.py). Elsewhere the two are the same.
  function shareUrl(href) {
    const c = config();
    const base = c.baseUrl || "/";
    const url = new URL(href || window.location.href, window.location.href);
    if (c.eeShareBase && c.eeShareBase !== base && url.pathname.startsWith(base)) {
      url.pathname = c.eeShareBase + url.pathname.slice(base.length);
    }
    return url.href;
  }
  // the link itself, as a long press, a right click or the keyboard reaches it to copy it
  for (const type of ["pointerdown", "contextmenu", "focusin"]) {
    document.addEventListener(type, (event) => {
      const link = event.target.closest && event.target.closest("a.ee-link");
      const c = config();
      if (link && c.eeShareBase && c.eeShareBase !== (c.baseUrl || "/")) {
        link.href = shareUrl(link.getAttribute("href"));
      }
    }, true);
  }

  // --- 1. the shutdown beacon and its token ------------------------------------------------
  let unloading = false;
  let beaconSent = false;
  const nativeBeacon = navigator.sendBeacon ? navigator.sendBeacon.bind(navigator) : null;
  function shutdownUrl() {
    const c = config();
    return c.kernelId ? `${c.baseUrl || "/"}voila/api/shutdown/${c.kernelId}` : null;
  }
  // Voilà's beacon carries only an _xsrf cookie a render never sets (voila-dashboards/voila#1458):
  // it gets the page's token here (docs/upstream/voila_page_script_hooks.md)
  if (nativeBeacon) {
    navigator.sendBeacon = function (url, data) {
      if (String(url).indexOf("voila/api/shutdown/") >= 0) {
        const form = data instanceof FormData ? data : new FormData();
        form.set("ee_token", config().eePageToken || "");
        beaconSent = true;
        return nativeBeacon(url, form);
      }
      return nativeBeacon(url, data);
    };
  }
  window.addEventListener("beforeunload", () => { unloading = true; }, true);
  window.addEventListener("pagehide", (event) => {
    unloading = true;
    const url = shutdownUrl();
    if (event.persisted || beaconSent || !url || !nativeBeacon) return;
    navigator.sendBeacon(url, new FormData());
  });

  // --- 2. a lost kernel --------------------------------------------------------------------
  let lost = false;
  let lastCheck = 0;

  function reopenHref() {
    const link = document.querySelector("a.ee-link");
    return shareUrl(link && link.getAttribute("href"));
  }

  function showLost() {
    if (lost) return;
    lost = true;
    const w = words();
    const note = document.querySelector("a.ee-link[data-lost-note]");
    const box = document.createElement("div");
    box.className = "ee-lost";
    box.setAttribute("role", "alert");
    const title = document.createElement("strong");
    title.textContent = w.stopped;
    const why = document.createElement("p");
    why.textContent = w.why + (note ? " " + note.getAttribute("data-lost-note") : "");
    const link = document.createElement("a");
    link.className = "ee-reopen";
    link.href = reopenHref();
    link.textContent = w.reopen;
    box.append(title, why, link);
    document.body.prepend(box);
    document.body.classList.add("ee-page-lost");
    link.focus({ preventScroll: true });
  }

  async function check() {
    const c = config();
    if (lost || unloading || !c.kernelId) return;
    lastCheck = Date.now();
    try {
      const r = await fetch(`${c.baseUrl || "/"}api/kernels/${c.kernelId}`,
                            { credentials: "same-origin", cache: "no-store" });
      // 404/410: the kernel is gone; 502/504: nginx found its process gone (several processes
      // behind one nginx: a page's requests go to the process that owns its kernel)
      if ([404, 410, 502, 504].includes(r.status)) showLost();
    } catch (e) {
      if (!unloading) showLost(); // the server itself is gone
    }
  }

  function v1Status(buffer) {
    // a v1 frame: offset count, offsets (uint64 little-endian), then channel, header, ...
    try {
      const view = new DataView(buffer);
      const n = view.getUint32(0, true);
      if (n < 6 || n > 70 || 8 * (n + 1) > buffer.byteLength) return null;
      const at = (i) => view.getUint32(8 * (i + 1), true);
      const text = (i) => new TextDecoder().decode(new Uint8Array(buffer, at(i), at(i + 1) - at(i)));
      if (text(0) !== "iopub") return null;
      const header = JSON.parse(text(1));
      if (header.msg_type !== "status") return null;
      return JSON.parse(text(4)).execution_state;
    } catch (e) {
      return null;
    }
  }

  // Voilà's page announces nothing when its kernel is gone: its kernel websocket is watched
  // here (docs/upstream/voila_page_script_hooks.md)
  const NativeWebSocket = window.WebSocket;
  function WatchedWebSocket(url, protocols) {
    const ws = protocols === undefined ? new NativeWebSocket(url) : new NativeWebSocket(url, protocols);
    if (/\/api\/kernels\/[0-9a-f-]{36}\/channels/.test(String(url))) {
      ws.addEventListener("message", (event) => {
        if (event.data instanceof ArrayBuffer) {
          const state = v1Status(event.data);
          if (state === "restarting" || state === "dead") showLost();
        }
      });
      ws.addEventListener("close", () => { if (!unloading) setTimeout(check, 300); });
    }
    return ws;
  }
  WatchedWebSocket.prototype = NativeWebSocket.prototype;
  for (const k of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) WatchedWebSocket[k] = NativeWebSocket[k];
  window.WebSocket = WatchedWebSocket;

  // the viewer's next action on a page whose socket went quiet
  for (const type of ["pointerdown", "keydown", "input", "change"]) {
    document.addEventListener(type, (event) => {
      if (lost || !event.target.closest || !event.target.closest(".ee-app")) return;
      if (Date.now() - lastCheck > 2000) check();
    }, true);
  }

  // --- 3. size limits of uploads and pastes --------------------------------------------------
  function limitOf(element) {
    const box = element.closest && element.closest(".ee-limited");
    const marker = box && box.querySelector(".ee-limit[data-bytes]");
    return marker ? { bytes: Number(marker.dataset.bytes), message: marker.dataset.message, marker } : null;
  }
  const utf8 = (text) => new TextEncoder().encode(text).length;
  function refuse(limit, name, bytes) {
    limit.marker.textContent = limit.message
      .replace("{name}", name).replace("{size}", (bytes / 1e6).toFixed(1));
  }
  function clear(limit) { limit.marker.textContent = ""; }

  function guardFiles(input, limit, event) {
    const files = Array.from(input.files || []);
    const bytes = files.reduce((n, f) => n + f.size, 0);
    if (bytes > limit.bytes) {
      event.stopImmediatePropagation();
      input.value = "";
      refuse(limit, files.length ? files[0].name : words().file, bytes);
    } else {
      clear(limit);
    }
  }
  // ipywidgets' FileUpload keeps its <input type=file> out of the page (its button's text
  // replaces it) and opens it with input.click(): the limit of the box last clicked in is
  // attached to that input then, as a capturing listener, which runs before the widget's own
  // (FileUpload has no size limit of its own: docs/upstream/ipywidgets_published_kernel.md).
  let lastLimit = null;
  document.addEventListener("click", (event) => {
    lastLimit = event.target.closest ? limitOf(event.target) : null;
  }, true);
  const nativeClick = HTMLInputElement.prototype.click;
  HTMLInputElement.prototype.click = function () {
    const limit = this.type === "file" && !this.isConnected ? lastLimit : null;
    if (limit && !this.__eeLimit) {
      this.__eeLimit = limit;
      this.addEventListener("change", (event) => guardFiles(this, this.__eeLimit, event), true);
    }
    return nativeClick.apply(this, arguments);
  };
  document.addEventListener("change", (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || input.type !== "file") return;
    const limit = limitOf(input);
    if (limit) guardFiles(input, limit, event);
  }, true);

  function guardText(event) {
    const box = event.target;
    if (!(box instanceof HTMLTextAreaElement || box instanceof HTMLInputElement)) return;
    const limit = limitOf(box);
    if (!limit) return;
    const bytes = utf8(box.value);
    if (bytes > limit.bytes) {
      event.stopImmediatePropagation();
      refuse(limit, words().pasted, bytes);
    } else {
      clear(limit);
    }
  }
  document.addEventListener("input", guardText, true);
  document.addEventListener("change", guardText, true);
  document.addEventListener("paste", (event) => {
    const box = event.target;
    if (!(box instanceof HTMLTextAreaElement || box instanceof HTMLInputElement)) return;
    const limit = limitOf(box);
    if (!limit || !event.clipboardData) return;
    const kept = box.value.slice(0, box.selectionStart) + box.value.slice(box.selectionEnd);
    const bytes = utf8(kept) + utf8(event.clipboardData.getData("text") || "");
    if (bytes > limit.bytes) {
      event.preventDefault();
      event.stopImmediatePropagation();
      refuse(limit, words().pasted, bytes);
    }
  }, true);

  // --- 4. the view's width, for its figures ------------------------------------------------
  const told = new WeakMap();
  function tellWidths() {
    const screen = document.documentElement.clientWidth;
    for (const app of document.querySelectorAll(".ee-app")) {
      const input = app.querySelector(":scope > .ee-viewport input");
      if (!input) continue;
      const width = Math.floor(Math.min(app.getBoundingClientRect().width || screen, screen));
      if (width <= 0 || told.get(input) === width) continue;
      told.set(input, width);
      input.value = String(width);
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(pass, 250);
  });

  // --- 5. accessible names ------------------------------------------------------------------
  const labelText = (widget) => {
    const label = widget && widget.querySelector(":scope > .widget-label");
    const text = label ? label.textContent.trim() : "";
    return text || (widget && widget.getAttribute("title")) || "";
  };
  function name(element, text) {
    if (text && !element.getAttribute("aria-label") && !element.getAttribute("aria-labelledby")) {
      element.setAttribute("aria-label", text);
    }
  }
  function nameControls() {
    for (const handle of document.querySelectorAll(".widget-slider .noUi-handle")) {
      name(handle, labelText(handle.closest(".widget-slider")));
    }
    for (const control of document.querySelectorAll(
        ".jupyter-widgets input, .jupyter-widgets select, .jupyter-widgets textarea")) {
      if (control.labels && control.labels.length && control.labels[0].textContent.trim()) continue;
      name(control, labelText(control.closest(".widget-inline-hbox")) || control.getAttribute("title"));
    }
    measureFrames();
    for (const button of document.querySelectorAll(".jupyter-widgets button")) {
      if (!button.textContent.trim()) name(button, button.getAttribute("title"));
    }
    for (const img of document.querySelectorAll("img.ee-plot")) {
      const alt = img.getAttribute("title") || "";
      if (img.getAttribute("alt") !== alt) img.setAttribute("alt", alt);
    }
  }
  // a frame that scrolls sideways (a wide table on a phone): the keyboard can reach and
  // scroll it; one that no longer scrolls leaves the Tab order
  function measureFrames() {
    for (const frame of document.querySelectorAll("table, .widget-html-content, .widget-box")) {
      const scrolls = frame.scrollWidth > frame.clientWidth + 1 &&
        ["auto", "scroll"].includes(getComputedStyle(frame).overflowX);
      if (scrolls && !frame.hasAttribute("tabindex")) {
        frame.setAttribute("tabindex", "0");
        frame.setAttribute("data-ee-frame", "");
        const caption = frame.querySelector("caption");
        if (caption) name(frame, caption.textContent.trim());
      } else if (!scrolls && frame.hasAttribute("data-ee-frame")) {
        frame.removeAttribute("tabindex");
        frame.removeAttribute("data-ee-frame");
      }
    }
  }
  // a frame's overflow also changes as a figure's new drawing loads (a new src: not a change
  // the page's observer watches): measured again then
  document.addEventListener("load", (event) => {
    if (event.target.tagName === "IMG") measureFrames();
  }, true);

  // --- 7. the language switch keeps the view -------------------------------------------------
  function switchLanguages() {
    const link = document.querySelector("a.ee-link");
    // the view's query, whether its link is the page's own "?..." or a shared address
    const query = link ? new URL(link.getAttribute("href") || "", window.location.href).search
      : window.location.search;
    for (const a of document.querySelectorAll("nav.ee-langs a.ee-lang[data-page]")) {
      const target = a.dataset.page + query;
      if (a.getAttribute("href") !== target) a.setAttribute("href", target);
    }
  }

  // --- 8. the dock ----------------------------------------------------------------------------
  const DEFAULT_SHOWN = 2;
  const seenDocks = new WeakSet();
  const watched = new WeakSet();
  const liveInView = new Set();
  const controlsInView = new Set();
  let dockPadding = 0;
  const depsOf = (e) => [...e.classList].filter((c) => c.startsWith("ee-dep-")).map((c) => c.slice(7));
  const traitOf = (item) => ([...item.classList].find((c) => c.startsWith("ee-dock-") &&
    c !== "ee-dock-item" && c !== "ee-dock-idle") || "").slice(8);

  // a phone, upright or turned sideways (a short screen): the dock shows the controls of the
  // tables in view; a desktop's bar has room for every docked control
  const NARROW = window.matchMedia("(max-width: 700px), (max-height: 500px)");
  function updateDocks() {
    const wanted = new Set();
    for (const out of liveInView) for (const t of depsOf(out)) wanted.add(t);
    const narrow = NARROW.matches;
    for (const dock of document.querySelectorAll(".ee-dock")) {
      const items = [...dock.querySelectorAll(".ee-dock-item")];
      const docked = new Set(items.map(traitOf));
      let shown = items.filter((i) => wanted.has("any") || wanted.has(traitOf(i)));
      // a table in view that follows what no control sets (09's season, run from its
      // settings): the first docked controls too
      if (!shown.length || [...wanted].some((t) => t !== "any" && !docked.has(t))) {
        shown = [...new Set([...items.slice(0, DEFAULT_SHOWN), ...shown])];
      }
      if (!narrow) shown = items; // a desktop's bar has room for every docked control
      if (!dock.contains(document.activeElement)) { // none vanishes under the focus
        for (const item of items) item.classList.toggle("ee-dock-idle", !shown.includes(item));
      }
      dock.classList.toggle("ee-dock-away", controlsInView.size > 0);
      padFor(dock);
    }
  }
  // the page scrolls inside a box of Voilà's (or the document itself): its end is padded
  function scroller(element) {
    for (let e = element.parentElement; e && e !== document.body; e = e.parentElement) {
      if (["auto", "scroll"].includes(getComputedStyle(e).overflowY) &&
          e.scrollHeight > e.clientHeight + 1) return e;
    }
    return document.body;
  }
  function padFor(dock) {
    const height = Math.ceil(dock.offsetHeight);
    if (height > dockPadding) {
      dockPadding = height;
      scroller(dock).style.paddingBottom = `${height + 16}px`;
    }
  }
  const liveObserver = "IntersectionObserver" in window ? new IntersectionObserver((entries) => {
    for (const e of entries) { if (e.isIntersecting) liveInView.add(e.target); else liveInView.delete(e.target); }
    updateDocks();
  }) : null;
  // a window resized across a phone's size (a phone turned, a window narrowed): the dock shows
  // the controls of that size at once, not at the next scroll
  NARROW.addEventListener("change", updateDocks);
  const controlObserver = "IntersectionObserver" in window ? new IntersectionObserver((entries) => {
    // a control counts when some of it is on screen (an edge touching the screen's does not)
    for (const e of entries) {
      if (e.isIntersecting && e.intersectionRect.height > 0) controlsInView.add(e.target);
      else controlsInView.delete(e.target);
    }
    updateDocks();
  }) : null;

  function setUpDock(dock) {
    const bar = dock.querySelector(".ee-dock-bar");
    if (!bar) return false;
    dock.setAttribute("role", "region");
    dock.setAttribute("aria-label", bar.dataset.label || "");
    if ("ResizeObserver" in window) new ResizeObserver(() => padFor(dock)).observe(dock);
    return true;
  }
  // the dock's button says what it does next; the dock's class holds whether it is folded
  function showToggle(dock) {
    const bar = dock.querySelector(".ee-dock-bar");
    const toggle = bar && bar.querySelector("button.ee-dock-toggle");
    if (!toggle) return;
    const closed = dock.classList.contains("ee-dock-closed");
    const text = closed ? bar.dataset.show : bar.dataset.hide;
    if (toggle.getAttribute("aria-expanded") !== String(!closed)) toggle.setAttribute("aria-expanded", String(!closed));
    if (toggle.textContent !== text) toggle.textContent = text;
  }
  // one listener for every dock's button, on the document: the button is the markup of an HTML
  // widget, which draws it anew (a new element, without listeners) whenever its model changes
  document.addEventListener("click", (event) => {
    const toggle = event.target.closest && event.target.closest(".ee-dock button.ee-dock-toggle");
    if (!toggle) return;
    const dock = toggle.closest(".ee-dock");
    dock.classList.toggle("ee-dock-closed");
    showToggle(dock);
  }, true);
  function docks() {
    for (const dock of document.querySelectorAll(".ee-dock")) {
      if (!seenDocks.has(dock) && setUpDock(dock)) seenDocks.add(dock);
      showToggle(dock); // a button drawn anew says what the dock is
      // "Go to the result": the view's element with the key number gets the link's target id
      const go = dock.querySelector("a.ee-dock-go[data-target]");
      const app = dock.closest(".ee-app");
      const target = go && app && app.querySelector(`.${CSS.escape(go.dataset.target)}`);
      if (target && !target.id && !document.getElementById("ee-result")) target.id = "ee-result";
    }
    if (!liveObserver) return;
    for (const out of document.querySelectorAll(".ee-live")) {
      if (!watched.has(out) && !out.closest(".ee-app")) { watched.add(out); liveObserver.observe(out); }
    }
    for (const control of document.querySelectorAll(
        ".ee-app .widget-inline-hbox:not(.widget-html, .widget-htmlmath, .widget-label)," +
        " .ee-app button.widget-button, .ee-app .widget-toggle-buttons")) {
      if (!watched.has(control) && !control.closest(".ee-dock")) {
        watched.add(control);
        controlObserver.observe(control);
      }
    }
  }

  function pass() {
    nameControls();
    tellWidths();
    switchLanguages();
    docks();
  }
  // at once after each change of the page (before anything else runs): a redrawn table or
  // figure is never without its name
  const observer = new MutationObserver(pass);
  function watch() {
    observer.observe(document.body, { childList: true, subtree: true, attributes: true,
                                      attributeFilter: ["title", "class"] });
    pass();
  }
  if (document.body) watch(); else document.addEventListener("DOMContentLoaded", watch);

  // --- 6. copy the link to this view ---------------------------------------------------------
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button.ee-copy");
    if (!button) return;
    const link = button.parentElement && button.parentElement.querySelector("a.ee-link");
    if (!link) return;
    const url = shareUrl(link.getAttribute("href"));
    const shown = button.textContent;
    copyText(url).then(() => {
      button.textContent = button.dataset.done || shown;
      button.setAttribute("data-copied", url);
      setTimeout(() => { button.textContent = shown; }, 2000);
    }, () => {
      // no clipboard: select the link's address so the viewer can copy it by hand
      window.prompt("", url);
    });
  });

  // Number boxes answer as the viewer types (interactive.page.NumberField); a half-typed value's message
  // stays hidden while the box has the focus (CSS), and shows on Enter: marked here, in the
  // page, so that no message to the kernel can arrive after the value it follows.
  document.addEventListener("keydown", (event) => {
    const box = event.target.closest && event.target.closest(".ee-number");
    if (box && event.key === "Enter") box.classList.add("ee-submitted");
  }, true);
  document.addEventListener("input", (event) => {
    const box = event.target.closest && event.target.closest(".ee-number");
    if (box) box.classList.remove("ee-submitted");
  }, true);
})();

