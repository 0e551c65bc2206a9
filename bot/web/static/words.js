// The pages' own words, in the language of the page's switch (or the
// browser's): the catalogue's keys of the page (assets/lang, page.*),
// fetched from GET /web/words?lang=xx. Elements say which words they
// show: data-words=KEY (their text), data-words-placeholder,
// data-words-aria-label, data-words-title, data-words-alt; the scripts
// word the rest with t(KEY, {Name: value}), which fills the catalogue's
// {{.Name}}.
"use strict";

const Words = (() => {
  let words = {}, lang = "en", loaded = false, asked = 0;
  // The language asked for: the switch's, saved, else the browser's.
  const wanted = () => localStorage.getItem("risk.lang") || (navigator.language || "en").slice(0, 2);

  // load fetches the words of a language (the server's answer says which
  // it gave: English for one it lacks) and words the page with them. It
  // never fails: without them (the server gone) the HTML keeps its English
  // and t shows keys.
  async function load(code) {
    const n = ++asked;
    try {
      const res = await fetch("/web/words?lang=" + encodeURIComponent(code || wanted()));
      if (!res.ok) return;
      const got = await res.json();
      if (n !== asked) return; // a later switch's words win
      words = got;
      loaded = true;
      lang = res.headers.get("Content-Language") || "en";
      document.documentElement.lang = lang;
      apply(document);
    } catch { /* the HTML's English stays */ }
  }

  // plural is the catalogue's plural form for a count: CLDR's "one" is 1
  // in English, 0 and 1 in French.
  const plural = (n) => (lang === "fr" ? n === 0 || n === 1 : n === 1) ? "one" : "other";

  // t words a key with its arguments ({Count: 3, Name: "Ann"}); a key
  // not (yet) loaded is shown as it is.
  function t(key, args) {
    let s = words[key];
    if (s === undefined) return key;
    if (typeof s === "object") s = s[plural(args && args.Count)] || s.other;
    return s.replace(/\{\{\.(\w+)\}\}/g, (m, name) => args && name in args ? String(args[name]) : m);
  }

  // apply words the elements under root that say which words they show.
  function apply(root) {
    if (!loaded) return; // the HTML's English stays
    for (const el of root.querySelectorAll("[data-words]")) el.textContent = t(el.dataset.words);
    for (const el of root.querySelectorAll("[data-words-placeholder]")) el.placeholder = t(el.dataset.wordsPlaceholder);
    for (const el of root.querySelectorAll("[data-words-aria-label]")) el.setAttribute("aria-label", t(el.dataset.wordsAriaLabel));
    for (const el of root.querySelectorAll("[data-words-title]")) el.title = t(el.dataset.wordsTitle);
    for (const el of root.querySelectorAll("[data-words-alt]")) el.alt = t(el.dataset.wordsAlt);
  }

  return { load, t, apply, wanted, lang: () => lang };
})();
const t = Words.t;
