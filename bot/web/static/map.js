// The clickable map (docs/playing.md, "Playing on the map"), shared by the
// channel page and the spectators' page: where each territory lies in a
// match's map (its regions and index image, GET /api/matches/{id}/regions),
// a tooltip of what the viewer may see of a territory (in the page's
// words: words.js), a focusable button per territory for the keyboard and
// screen readers, tints and arrows drawn over the image, a zoomed view
// (buttons, pinch) for small screens, and the exact odds of an attack.
"use strict";

const RiskMap = (() => {
  // roll[a][d] is the loss distribution of one roll of a dice against d
  // (engine.rollTable): pairs compared, and p[k] the chance the defender
  // loses k of them, by enumeration of every face.
  const roll = [];
  for (let a = 1; a <= 3; a++) {
    roll[a] = [];
    for (let d = 1; d <= 2; d++) {
      const pairs = Math.min(a, d), counts = [0, 0, 0];
      const total = 6 ** (a + d);
      for (let code = 0; code < total; code++) {
        let x = code;
        const f = [];
        for (let i = 0; i < a + d; i++) { f.push(x % 6 + 1); x = Math.floor(x / 6); }
        const att = f.slice(0, a).sort((p, q) => q - p), def = f.slice(a).sort((p, q) => q - p);
        let lost = 0;
        for (let i = 0; i < pairs; i++) if (att[i] > def[i]) lost++;
        counts[lost]++;
      }
      roll[a][d] = { pairs, p: counts.map((c) => c / total) };
    }
  }

  // odds is engine.AttackOdds: attacking to the end with a armies on the
  // attacking territory (one stays) against d, the chance to win and the
  // armies expected to be left on each side, by the same dynamic
  // programming over the rolls, in the same order (so the same numbers).
  function odds(a, d) {
    const w = d + 1, p = new Float64Array((a + 1) * w);
    const o = { attackers: a, defenders: d, win: 0, attacker_left: 0, defender_left: 0 };
    p[a * w + d] = 1;
    for (let x = a; x >= 1; x--) {
      for (let y = d; y >= 0; y--) {
        const q = p[x * w + y];
        if (q === 0) continue;
        if (x === 1 || y === 0) {
          if (y === 0) o.win += q;
          o.attacker_left += q * x;
          o.defender_left += q * y;
          continue;
        }
        const r = roll[Math.min(3, x - 1)][Math.min(2, y)];
        for (let k = 0; k <= r.pairs; k++) {
          if (r.p[k] === 0) continue;
          p[(x - (r.pairs - k)) * w + y - k] += q * r.p[k];
        }
      }
    }
    return o;
  }

  // regions loads a match's regions and the pixels of its index, once.
  const loaded = new Map();
  function regions(match) {
    if (!loaded.has(match)) {
      const p = (async () => {
        const res = await fetch("/api/matches/" + match + "/regions");
        if (!res.ok) throw new Error("no regions");
        const reg = await res.json();
        const im = new Image();
        im.src = reg.index;
        await im.decode();
        const c = document.createElement("canvas");
        c.width = reg.width;
        c.height = reg.height;
        const g = c.getContext("2d", { willReadFrequently: true });
        g.drawImage(im, 0, 0);
        reg.pixels = g.getImageData(0, 0, reg.width, reg.height).data;
        return reg;
      })();
      p.catch(() => loaded.delete(match));
      loaded.set(match, p);
    }
    return loaded.get(match);
  }

  // describe says what the viewer may see of territory t of a board
  // ({viewer, seats, territories}): its owner and armies, "?" in the fog.
  function describe(board, t) {
    const tr = board && board.territories[t];
    if (!tr) return { owner: "", armies: "" };
    if (tr.fog) return { owner: Words.t("page.tip.fog"), armies: Words.t("page.tip.fog-armies"), fog: true };
    const owner = tr.owner < 0 ? Words.t("page.tip.neutral") : tr.owner === board.viewer ? Words.t("page.tip.yours") : (board.seats[tr.owner] || {}).name || "?";
    return { owner, armies: Words.t(board.rules === "capitals" ? "page.tip.troops" : "page.tip.armies", { Count: tr.armies }) };
  }

  let made = 0; // maps attached: the ids of each one's arrow heads

  // attach makes img, the map of a match (in a wrapper of its own, made
  // here), hoverable and clickable. opts: match; board() the board the
  // viewer sees; pick(t, more) for a click, tap, Enter (more: shift or a
  // long press, for an amount); zoom: a zoomed view too (buttons, pinch).
  // It returns the map's controller.
  function attach(img, opts) {
    const wrap = document.createElement("div");
    wrap.className = "board";
    const id = "m" + ++made;
    let scroller = null;
    let bar = null;
    if (opts.zoom) {
      // The zoomed view scrolls inside a box of the fitted map's place;
      // its buttons (ctl.zoomBar) go where the page puts them.
      const box = document.createElement("div");
      box.className = "zoombox";
      scroller = document.createElement("div");
      scroller.className = "scroller";
      bar = document.createElement("div");
      bar.className = "zoom";
      for (const [k, f] of [["page.zoom.out", 1 / 1.6], ["page.zoom.in", 1.6]]) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "small";
        b.dataset.zoom = f > 1 ? "in" : "out";
        b.textContent = f > 1 ? "+" : "−";
        // Worded now, and again when the page's language changes.
        b.dataset.wordsAriaLabel = b.dataset.wordsTitle = k;
        b.title = Words.t(k);
        b.setAttribute("aria-label", b.title);
        b.addEventListener("click", () => zoomBy(f));
        bar.appendChild(b);
      }
      img.replaceWith(box);
      box.append(scroller);
      scroller.appendChild(wrap);
    } else {
      img.replaceWith(wrap);
    }
    wrap.appendChild(img);
    img.draggable = false;
    const tint = document.createElement("canvas");
    tint.className = "tint";
    tint.setAttribute("aria-hidden", "true");
    // (Parsed from HTML, the drawing gets SVG's namespace without this
    // file naming its address.)
    const tpl = document.createElement("template");
    tpl.innerHTML = '<svg class="arrows" aria-hidden="true"></svg>';
    const svg = tpl.content.firstChild, NS = svg.namespaceURI;
    const tip = document.createElement("div");
    tip.className = "tip";
    tip.hidden = true;
    tip.setAttribute("role", "tooltip");
    const spots = document.createElement("div");
    spots.className = "spots";
    wrap.append(tint, svg, spots, tip);
    const ctl = { wrap, img, scroller, zoomBar: bar, reg: null, ready: null, zoom: 1, highlight, arrows, refresh, hit, tipText, anchorOf, setZoom, zoomBy };
    let tinted = null, drawn = null;

    function tipText(t) {
      const d = describe(opts.board(), t);
      return ctl.reg.territories[t].name + (d.owner ? "\n" + d.owner + " · " + d.armies : "");
    }
    function showTip(t, x, y) {
      if (t < 0) { tip.hidden = true; return; }
      tip.textContent = tipText(t);
      tip.hidden = false;
      const r = wrap.getBoundingClientRect();
      // Beside the pointer, kept inside the map.
      tip.style.left = Math.max(0, Math.min(x + 12, r.width - tip.offsetWidth)) + "px";
      tip.style.top = Math.max(0, Math.min(y + 12, r.height - tip.offsetHeight)) + "px";
    }
    // hit is the territory at a point of the image as shown (CSS pixels
    // from its top left), -1 if none: the index's pixel there, or, on the
    // sea or a border, the nearest badge within 20 px (so that an island
    // is a target of 24 px and more in the zoomed view: docs/playing.md).
    function hit(x, y) {
      const reg = ctl.reg;
      if (!reg) return -1;
      const s = reg.width / img.clientWidth;
      const px = Math.floor(x * s), py = Math.floor(y * s);
      if (px < 0 || py < 0 || px >= reg.width || py >= reg.height) return -1;
      const v = reg.pixels[(py * reg.width + px) * 4];
      if (v > 0) return v - 1;
      let best = -1, bd = 20 * s;
      for (const t of reg.territories) {
        const dd = Math.hypot(t.anchor.x - px, t.anchor.y - py);
        if (dd < bd) { bd = dd; best = t.id; }
      }
      return best;
    }
    function anchorOf(t) {
      const a = ctl.reg.territories[t].anchor, s = img.clientWidth / ctl.reg.width;
      return { x: a.x * s, y: a.y * s };
    }
    const at = (ev) => { const r = img.getBoundingClientRect(); return { x: ev.clientX - r.left, y: ev.clientY - r.top }; };
    let press = null;
    img.addEventListener("pointermove", (ev) => {
      if (ev.pointerType === "touch") return;
      const p = at(ev);
      showTip(hit(p.x, p.y), p.x, p.y);
    });
    img.addEventListener("pointerleave", () => { tip.hidden = true; });
    img.addEventListener("pointerdown", (ev) => {
      if (!ctl.reg || ev.button > 0 || pinch) return;
      const p = at(ev), t = hit(p.x, p.y);
      if (t < 0) return;
      // A long press asks for an amount, as shift does.
      endPress();
      const pr = press = { t, long: false };
      pr.timer = setTimeout(() => { if (press !== pr) return; pr.long = true; opts.pick(t, true, ev.timeStamp); }, 500);
    });
    const endPress = () => { if (press) clearTimeout(press.timer); const p = press; press = null; return p; };
    img.addEventListener("pointerup", (ev) => {
      const pr = endPress();
      if (!pr || pr.long) return;
      const p = at(ev), t = hit(p.x, p.y);
      if (t !== pr.t) return;
      if (ev.pointerType === "touch") showTip(t, p.x, p.y);
      opts.pick(t, ev.shiftKey, ev.timeStamp);
    });
    img.addEventListener("pointercancel", endPress);
    img.addEventListener("contextmenu", (ev) => ev.preventDefault());

    // The zoomed view: the map grows inside its box, which scrolls (a
    // finger pans it); two fingers pinch it (the browser's own pinch
    // would zoom the whole page). Zoom 1 fits the box; the most shows
    // the map at its own size (twice the fitted one at least), where
    // every territory is a target of 24 px at least.
    let base = 0, pinch = null;
    const most = () => Math.max(2, (ctl.reg ? ctl.reg.width : 1600) / (base || img.clientWidth || 1));
    // setZoom zooms to z, keeping the point (cx, cy) of the box (its
    // centre if not given) where it is.
    function setZoom(z, cx, cy) {
      if (!scroller) return;
      if (ctl.zoom === 1) base = img.clientWidth;
      z = Math.min(most(), Math.max(1, z));
      if (z < 1.05) z = 1;
      const was = img.clientWidth;
      cx = cx === undefined ? scroller.clientWidth / 2 : cx;
      cy = cy === undefined ? scroller.clientHeight / 2 : cy;
      const x = scroller.scrollLeft + cx, y = scroller.scrollTop + cy;
      ctl.zoom = z;
      scroller.classList.toggle("zoomed", z > 1);
      scroller.parentElement.classList.toggle("zoomed", z > 1);
      img.style.width = z > 1 ? Math.round(base * z) + "px" : "";
      img.style.maxWidth = img.style.maxHeight = z > 1 ? "none" : "";
      const r = img.clientWidth / (was || 1);
      scroller.scrollLeft = x * r - cx;
      scroller.scrollTop = y * r - cy;
      if (bar) for (const b of bar.children) b.disabled = b.dataset.zoom === "in" ? z >= most() - 0.01 : z === 1;
    }
    function zoomBy(f) { setZoom(ctl.zoom * f); }
    if (scroller) {
      const spread = (ts) => Math.hypot(ts[0].clientX - ts[1].clientX, ts[0].clientY - ts[1].clientY);
      const mid = (ts) => { const r = scroller.getBoundingClientRect(); return { x: (ts[0].clientX + ts[1].clientX) / 2 - r.left, y: (ts[0].clientY + ts[1].clientY) / 2 - r.top }; };
      scroller.addEventListener("touchstart", (ev) => {
        if (ev.touches.length !== 2) return;
        endPress();
        pinch = { d: spread(ev.touches), z: ctl.zoom };
      }, { passive: true });
      scroller.addEventListener("touchmove", (ev) => {
        if (!pinch || ev.touches.length !== 2) return;
        ev.preventDefault();
        const m = mid(ev.touches);
        setZoom(pinch.z * spread(ev.touches) / pinch.d, m.x, m.y);
      }, { passive: false });
      const stop = (ev) => { if (ev.touches.length < 2) pinch = null; };
      scroller.addEventListener("touchend", stop);
      scroller.addEventListener("touchcancel", stop);
    }

    // highlight tints territories: colours by territory id ({3: "#f00a"}),
    // drawn from the index within each one's box.
    function highlight(colors) {
      const reg = ctl.reg;
      if (!reg) return;
      tinted = colors;
      const g = tint.getContext("2d");
      g.clearRect(0, 0, tint.width, tint.height);
      const ids = Object.keys(colors || {}).map(Number);
      if (!ids.length) return;
      for (const t of ids) {
        const b = reg.territories[t].box;
        const m = /^#(..)(..)(..)(..)?$/.exec(colors[t]);
        const rgba = [1, 2, 3, 4].map((i) => parseInt(m[i] || "ff", 16));
        const data = g.getImageData(b.x, b.y, b.w, b.h);
        const px = data.data;
        for (let y = 0; y < b.h; y++) {
          let i = ((b.y + y) * reg.width + b.x) * 4, o = y * b.w * 4;
          for (let x = 0; x < b.w; x++, i += 4, o += 4) {
            if (reg.pixels[i] !== t + 1) continue;
            px[o] = rgba[0]; px[o + 1] = rgba[1]; px[o + 2] = rgba[2]; px[o + 3] = rgba[3];
          }
        }
        g.putImageData(data, b.x, b.y);
      }
    }

    // arrows draws orders over the map: {kind: "attack" | "move" |
    // "plan" | "place", from, to, label}, an arrow from territory to
    // territory (a placement: its label by the target's badge).
    function arrows(list) {
      drawn = list;
      const reg = ctl.reg;
      if (!reg) return;
      svg.textContent = "";
      if (!list || !list.length) return;
      const el = (name, attrs, parent) => {
        const e = document.createElementNS(NS, name);
        for (const k in attrs) e.setAttribute(k, attrs[k]);
        (parent || svg).appendChild(e);
        return e;
      };
      const colour = { attack: "#ff3030", plan: "#ff3030", move: "#30e070", place: "#ffffff" };
      const defs = el("defs", {});
      for (const k of ["attack", "move"]) {
        const m = el("marker", { id: id + "-" + k, viewBox: "0 0 10 10", refX: 7, refY: 5, markerWidth: 3, markerHeight: 3, orient: "auto" }, defs);
        el("path", { d: "M0,0 L10,5 L0,10 z", fill: colour[k], stroke: "#000", "stroke-width": 1 }, m);
      }
      const w = reg.width / 140; // the line, in the image's pixels
      const label = (x, y, text, c) => {
        const g = el("g", { class: "label" });
        el("text", { x, y, "font-size": w * 3.6, "text-anchor": "middle", "dominant-baseline": "central", fill: c, stroke: "#000", "stroke-width": w, "paint-order": "stroke", "font-weight": 700 }, g).textContent = text;
      };
      for (const a of list) {
        const to = reg.territories[a.to].anchor;
        if (a.from < 0) {
          label(to.x + w * 3, to.y - w * 3, a.label, colour.place);
          continue;
        }
        const from = reg.territories[a.from].anchor;
        // From badge to badge, short of both.
        const dx = to.x - from.x, dy = to.y - from.y, len = Math.hypot(dx, dy) || 1, cut = Math.min(w * 2.2, len / 4);
        const x1 = from.x + dx / len * cut, y1 = from.y + dy / len * cut, x2 = to.x - dx / len * cut, y2 = to.y - dy / len * cut;
        const kind = a.kind === "move" ? "move" : "attack";
        el("line", { x1, y1, x2, y2, stroke: "#000", "stroke-width": w * 1.8, "stroke-linecap": "round", opacity: 0.6 });
        el("line", { x1, y1, x2, y2, stroke: colour[a.kind], "stroke-width": w, "stroke-linecap": "round", "marker-end": "url(#" + id + "-" + kind + ")", class: a.kind });
        // The number beside the arrow, not over it.
        if (a.label) label((x1 + x2) / 2 - dy / len * w * 2.4, (y1 + y2) / 2 + dx / len * w * 2.4, a.label, "#fff");
      }
    }

    // refresh names each territory's button as the board now shows it.
    function refresh() {
      if (!ctl.reg) return;
      for (const b of spots.children) {
        const t = +b.dataset.t, d = describe(opts.board(), t);
        b.setAttribute("aria-label", ctl.reg.territories[t].name + (d.owner ? ", " + d.owner + ", " + d.armies : ""));
      }
    }

    ctl.ready = regions(opts.match).then((reg) => {
      ctl.reg = reg;
      tint.width = reg.width;
      tint.height = reg.height;
      svg.setAttribute("viewBox", "0 0 " + reg.width + " " + reg.height);
      // The buttons in reading order: top to bottom, left to right.
      const order = [...reg.territories].sort((a, b) => a.anchor.y - b.anchor.y || a.anchor.x - b.anchor.x);
      for (const t of order) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "spot";
        b.dataset.t = t.id;
        b.style.left = (100 * t.anchor.x / reg.width) + "%";
        b.style.top = (100 * t.anchor.y / reg.height) + "%";
        b.addEventListener("click", (ev) => opts.pick(t.id, ev.shiftKey));
        b.addEventListener("focus", () => { const a = anchorOf(t.id); showTip(t.id, a.x, a.y); });
        b.addEventListener("blur", () => { tip.hidden = true; });
        spots.appendChild(b);
      }
      refresh();
      if (tinted) highlight(tinted);
      if (drawn) arrows(drawn);
      if (bar) setZoom(1);
      return ctl;
    });
    return ctl;
  }

  return { odds, attach, describe, regions };
})();
