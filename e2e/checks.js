// Checks run in the page after every step of a journey; returns a list of findings (strings).
// Plain browser JavaScript so it runs the same in any driver.
return (function () {
  const findings = [];
  const width = document.documentElement.clientWidth;
  const visible = (e) => {
    // checkVisibility also answers for what a closed <details> or content-visibility hides.
    if (e.checkVisibility && !e.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return false;
    const r = e.getBoundingClientRect();
    const s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none";
  };
  // Inside a box clipped to nothing (the visually hidden pattern: a table's header on a phone).
  const clippedAway = (e) => {
    for (let p = e; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if ((s.clip && s.clip !== "auto") || (s.clipPath && s.clipPath !== "none")) return true;
      const r = p.getBoundingClientRect();
      if ((r.width <= 1 || r.height <= 1) && s.overflow !== "visible") return true;
    }
    return false;
  };
  const describe = (e) => {
    let text = e.tagName.toLowerCase();
    if (e.id) text += "#" + e.id;
    else if (e.className && typeof e.className === "string") text += "." + e.className.trim().split(/\s+/).join(".");
    const words = (e.getAttribute("name") || e.textContent || "").trim().replace(/\s+/g, " ").slice(0, 40);
    return words ? `${text} "${words}"` : text;
  };
  // Something inside a box that scrolls sideways on purpose is fine; anything else past the window is not.
  const scrolls = (e) => {
    for (let p = e.parentElement; p; p = p.parentElement) {
      const x = getComputedStyle(p).overflowX;
      if (x === "auto" || x === "scroll" || x === "hidden" || x === "clip") return true;
    }
    return false;
  };
  const wide = [...document.body.querySelectorAll("*")].filter(
    (e) => visible(e) && e.getBoundingClientRect().right > width + 1 && !scrolls(e));
  // Report the outermost offenders only.
  for (const e of wide.filter((e) => !wide.includes(e.parentElement)).slice(0, 3)) {
    findings.push(`wider than the window (${Math.round(e.getBoundingClientRect().right)} > ${width} px): ${describe(e)}`);
  }
  // An absolutely positioned element escapes a scrolling parent that is not positioned itself, so the
  // walk above can miss it; the page as a whole must not scroll sideways either way.
  const pageWidth = document.documentElement.scrollWidth;
  if (wide.length === 0 && pageWidth > width + 1) {
    findings.push(`the page scrolls sideways (${pageWidth} > ${width} px)`);
  }

  // A chart fits the window whole: a sideways scroll hid the end of its range on a phone.
  for (const svg of [...document.querySelectorAll("svg.chart")].filter(visible)) {
    const r = svg.getBoundingClientRect();
    if (r.right > width + 1 || (svg.parentElement && svg.parentElement.scrollWidth > svg.parentElement.clientWidth + 1)) {
      findings.push(`a chart does not fit the window (${Math.round(r.width)} px wide): ${describe(svg)}`);
    }
  }

  // A table laid out as a table lines its header cells up with the cells of its first body row (the
  // phone card layout hides the header, so only where the header shows). A grid or flex meant for a
  // list once squeezed every row of a table into one column beside its header.
  for (const table of [...document.querySelectorAll("table")].filter(visible)) {
    const head = table.tHead && table.tHead.rows[0];
    const body = table.tBodies[0] && [...table.tBodies[0].rows].find((r) => visible(r) && r.cells.length > 1);
    if (!head || !body || !visible(head) || clippedAway(head)) continue;
    const heads = [...head.cells].filter(visible);
    const cells = [...body.cells].filter(visible);
    const spans = (list) => list.reduce((n, c) => n + (c.colSpan || 1), 0);
    if (spans(heads) !== spans(cells)) continue; // a row that spans columns on purpose
    let column = 0;
    const starts = new Map(cells.map((c) => { const at = column; column += c.colSpan || 1; return [at, c]; }));
    column = 0;
    for (const h of heads) {
      const cell = starts.get(column);
      column += h.colSpan || 1;
      if (!cell) continue;
      const a = h.getBoundingClientRect(), b = cell.getBoundingClientRect();
      if (Math.abs(a.left - b.left) > 3 || Math.abs(a.width - b.width) > 3 || b.top < a.bottom - 1) {
        findings.push(`a table's header does not line up with its rows (${Math.round(a.left)}+${Math.round(a.width)} vs ${Math.round(b.left)}+${Math.round(b.width)} px): ${describe(h)} in ${describe(table)}`);
        break;
      }
    }
  }

  // No text is drawn over other text or over a control: boxes of text runs and of form controls,
  // pictures and charts must not cross a run of text they do not contain.
  const textBoxes = [];
  const textWalker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (textWalker.nextNode()) {
    const node = textWalker.currentNode;
    const e = node.parentElement;
    // A zoomable map's markers are glyphs on its picture: near places overlap, and a popup opens over them.
    if (!e || !node.textContent.trim() || !visible(e) || e.closest("svg, .visually-hidden, .sr-only, [aria-hidden=true], option, script, style, .leaflet-marker-pane") || clippedAway(e)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (r.width >= 2 && r.height >= 2) textBoxes.push({ e, r });
    }
  }
  const controls = [...document.querySelectorAll("input:not([type=hidden]), select, textarea, img, svg, video, canvas, button")]
    // A zoomable map's tiles and lines (Leaflet's panes) lie under its own controls by design and
    // reach past its edges, where the map clips them.
    .filter((e) => visible(e) && !e.closest(".visually-hidden, .sr-only, .leaflet-pane") && !(e.parentElement && e.parentElement.closest("svg")))
    .map((e) => ({ e, r: e.getBoundingClientRect() }));
  const crosses = (a, b) => {
    const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return x > 3 && y > Math.min(4, Math.min(a.height, b.height) / 3);
  };
  const overlaps = [];
  textBoxes.sort((a, b) => a.r.top - b.r.top);
  for (let i = 0; i < textBoxes.length && overlaps.length < 3; i++) {
    const a = textBoxes[i];
    for (let j = i + 1; j < textBoxes.length && textBoxes[j].r.top < a.r.bottom; j++) {
      const b = textBoxes[j];
      if (a.e !== b.e && !a.e.contains(b.e) && !b.e.contains(a.e) && crosses(a.r, b.r)) {
        overlaps.push(`text "${a.e.textContent.trim().slice(0, 30)}" overlaps text "${b.e.textContent.trim().slice(0, 30)}"`);
        break;
      }
    }
    for (const c of controls) {
      if (overlaps.length >= 3) break;
      if (!c.e.contains(a.e) && !a.e.contains(c.e) && !(c.e.labels && [...c.e.labels].some((l) => l.contains(a.e))) && crosses(a.r, c.r)) {
        overlaps.push(`${describe(c.e)} overlaps text "${a.e.textContent.trim().slice(0, 30)}"`);
      }
    }
  }
  for (const o of overlaps) findings.push(o);

  const fields = document.querySelectorAll("input, select, textarea");
  for (const f of fields) {
    if (["hidden", "submit", "button", "reset", "image"].includes(f.type)) continue;
    const labelled = (f.id && document.querySelector(`label[for="${CSS.escape(f.id)}"]`)) || f.closest("label") ||
      f.getAttribute("aria-label") || f.getAttribute("aria-labelledby") || f.getAttribute("title");
    if (!labelled) findings.push(`form field without a label: ${describe(f)}`);
  }
  // On a phone every control is at least 44 px high (a choice's label counts as its target; text
  // buttons reach 44 px through an invisible margin, see .link-button).
  if (width <= 640) {
    const small = [];
    for (const e of document.querySelectorAll("button, .button, input[type=checkbox], input[type=radio]")) {
      if (!visible(e) || e.matches(".link-button") || e.closest(".user-menu, .visually-hidden")) continue;
      let box = e.getBoundingClientRect();
      if (e.matches("input[type=checkbox], input[type=radio]")) {
        const label = e.id && document.querySelector(`label[for="${CSS.escape(e.id)}"]`);
        if (label && visible(label)) box = label.getBoundingClientRect();
      }
      if (box.height < 43.5) small.push(`${describe(e)} ${Math.round(box.height)} px high`);
    }
    for (const s of small.slice(0, 3)) findings.push(`tap target under 44 px: ${s}`);
  }
  for (const img of document.querySelectorAll("img")) {
    if (!img.hasAttribute("alt")) findings.push(`image without alt text: ${img.getAttribute("src")}`);
  }

  // Contrast of text against the background it is drawn on (WCAG 2 relative luminance).
  const rgba = (text) => {
    const m = text.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const luminance = (c) => {
    const ch = [c.r, c.g, c.b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
  };
  const backgroundOf = (e) => {
    for (let p = e; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.backgroundImage && s.backgroundImage !== "none") return null; // drawn on a picture or gradient: not judged
      const c = rgba(s.backgroundColor);
      if (c && c.a >= 0.99) return c;
    }
    return { r: 255, g: 255, b: 255, a: 1 };
  };
  const poor = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const e = node.parentElement;
    if (!e || seen.has(e) || !node.textContent.trim() || !visible(e)) continue;
    seen.add(e);
    if (e.closest("svg, [aria-hidden=true], .visually-hidden, .sr-only")) continue;
    const s = getComputedStyle(e);
    const fg = rgba(s.color);
    const bg = backgroundOf(e);
    if (!fg || !bg) continue;
    // Faded text: the opacity of the element and of every box around it thins the colour alike.
    let alpha = fg.a;
    for (let p = e; p; p = p.parentElement) alpha *= parseFloat(getComputedStyle(p).opacity);
    if (alpha <= 0) continue;
    const blended = { r: fg.r * alpha + bg.r * (1 - alpha), g: fg.g * alpha + bg.g * (1 - alpha), b: fg.b * alpha + bg.b * (1 - alpha) };
    const [hi, lo] = [luminance(blended), luminance(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(s.fontSize);
    const large = size >= 24 || (size >= 18.66 && parseInt(s.fontWeight, 10) >= 700);
    if (ratio < (large ? 3 : 4.5)) poor.push(`${describe(e)} ${ratio.toFixed(2)}:1`);
  }
  for (const p of poor.slice(0, 3)) findings.push(`text contrast below 4.5:1: ${p}`);
  return findings;
})();
