// The clickable map (docs/playing.md, "Playing on the map"), shared by the
// channel page and the spectators' page: where each territory lies in a
// match's map (its regions and index image, GET /api/matches/{id}/regions),
// a tooltip of what the viewer may see of a territory (in the page's
// words: words.js), a focusable button per territory for the keyboard and
// screen readers, tints drawn over the image, and the exact odds of an
// attack.
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
    return { owner, armies: Words.t("page.tip.armies", { Count: tr.armies }) };
  }

  // attach makes img, the map of a match (in a wrapper of its own, made
  // here), hoverable and clickable. opts: match; board() the board the
  // viewer sees; pick(t, more) for a click, tap, Enter (more: shift or a
  // long press, for an amount). It returns the map's controller.
  function attach(img, opts) {
    const wrap = document.createElement("div");
    wrap.className = "board";
    img.replaceWith(wrap);
    wrap.appendChild(img);
    img.draggable = false;
    const tint = document.createElement("canvas");
    tint.className = "tint";
    tint.setAttribute("aria-hidden", "true");
    const tip = document.createElement("div");
    tip.className = "tip";
    tip.hidden = true;
    tip.setAttribute("role", "tooltip");
    const spots = document.createElement("div");
    spots.className = "spots";
    wrap.append(tint, spots, tip);
    const ctl = { wrap, img, reg: null, ready: null, highlight, refresh, hit, tipText, anchorOf };
    let tinted = null;

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
    // sea or a border, the nearest badge within 16 px.
    function hit(x, y) {
      const reg = ctl.reg;
      if (!reg) return -1;
      const s = reg.width / img.clientWidth;
      const px = Math.floor(x * s), py = Math.floor(y * s);
      if (px < 0 || py < 0 || px >= reg.width || py >= reg.height) return -1;
      const v = reg.pixels[(py * reg.width + px) * 4];
      if (v > 0) return v - 1;
      let best = -1, bd = 16 * s;
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
      if (!ctl.reg || ev.button > 0) return;
      const p = at(ev), t = hit(p.x, p.y);
      if (t < 0) return;
      // A long press asks for an amount, as shift does.
      press = { t, id: ev.pointerId, long: false, timer: setTimeout(() => { press.long = true; opts.pick(t, true); }, 500) };
    });
    const endPress = () => { if (press) clearTimeout(press.timer); const p = press; press = null; return p; };
    img.addEventListener("pointerup", (ev) => {
      const pr = endPress();
      if (!pr || pr.long) return;
      const p = at(ev), t = hit(p.x, p.y);
      if (t !== pr.t) return;
      if (ev.pointerType === "touch") showTip(t, p.x, p.y);
      opts.pick(t, ev.shiftKey);
    });
    img.addEventListener("pointercancel", endPress);
    img.addEventListener("contextmenu", (ev) => ev.preventDefault());

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
      return ctl;
    });
    return ctl;
  }

  return { odds, attach, describe, regions };
})();
