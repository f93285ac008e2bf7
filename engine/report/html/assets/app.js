// Tool definitions, printed when a card's definition is opened, with the
// members its issues are about marked. Text goes in as text nodes only.
// On a page of many tools, each card's body too is drawn only when the
// card comes near the view, is linked to, or the page is printed: the
// bodies are in the same JSON, as html/template escaped them, and that
// JSON is gzip-compressed.
(function () {
  "use strict";
  var source = document.getElementById("definitions");
  var packed = source !== null && source.dataset.packing === "gzip base64url";
  var parsed = null, pending = null, unpackErr = "";
  // data calls back with the definitions (and, on a page of many tools,
  // the cards' bodies): at once when the page holds them as JSON, once
  // unpacked when it holds them compressed.
  function data(then) {
    if (parsed !== null) { then(parsed); return; }
    if (!packed) {
      parsed = source ? JSON.parse(source.textContent) : {};
      then(parsed);
      return;
    }
    if (pending === null) {
      pending = unpack(source.textContent).then(function (d) { parsed = d; return d; }, function (err) {
        unpackErr = "This browser could not unpack the card (" + err + "); the JSON report holds it.";
        parsed = {};
        return parsed;
      });
    }
    pending.then(then);
  }
  function unpack(text) {
    try {
      var bin = atob(text.trim().replace(/-/g, "+").replace(/_/g, "/"));
      var bytes = new Uint8Array(bin.length);
      for (var i = 0; i < bin.length; i++) { bytes[i] = bin.charCodeAt(i); }
      var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      return new Response(stream).json();
    } catch (err) {
      return Promise.reject(err);
    }
  }
  var maxDepth = 40;
  function span(cls, text) {
    var s = document.createElement("span");
    s.className = cls;
    s.textContent = text;
    return s;
  }
  // visible writes a string as JSON with every control, format and
  // separator character as an escape, as the page's Go side writes them
  // (\u202e, \U000e0041): a bidirectional control in a definition must
  // not reorder what the reader sees.
  var hidden = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
  function visible(v) {
    return JSON.stringify(v).replace(hidden, function (c) {
      var n = c.codePointAt(0), h = n.toString(16);
      return n > 0xffff ? "\\U" + ("0000000" + h).slice(-8) : "\\u" + ("000" + h).slice(-4);
    });
  }
  function print(out, v, path, marks, depth) {
    var pad = new Array(depth + 1).join("  ");
    if (depth > maxDepth) { out.appendChild(span("j-more", "…")); return; }
    if (Array.isArray(v)) {
      if (v.length === 0) { out.appendChild(document.createTextNode("[]")); return; }
      out.appendChild(document.createTextNode("[\n"));
      v.forEach(function (e, i) {
        out.appendChild(document.createTextNode(pad + "  "));
        print(out, e, path.concat(String(i)), marks, depth + 1);
        out.appendChild(document.createTextNode((i < v.length - 1 ? "," : "") + "\n"));
      });
      out.appendChild(document.createTextNode(pad + "]"));
    } else if (v !== null && typeof v === "object") {
      var keys = Object.keys(v).sort();
      if (keys.length === 0) { out.appendChild(document.createTextNode("{}")); return; }
      out.appendChild(document.createTextNode("{\n"));
      keys.forEach(function (k, i) {
        var sub = path.concat(k), msg = marks[sub.join("\u0000")], at = out;
        out.appendChild(document.createTextNode(pad + "  "));
        if (msg !== undefined) {
          at = document.createElement("mark");
          at.title = msg;
          out.appendChild(at);
        }
        at.appendChild(span("j-key", visible(k)));
        at.appendChild(document.createTextNode(": "));
        print(at, v[k], sub, marks, depth + 1);
        out.appendChild(document.createTextNode((i < keys.length - 1 ? "," : "") + "\n"));
      });
      out.appendChild(document.createTextNode(pad + "}"));
    } else if (typeof v === "string") {
      out.appendChild(span("j-str", visible(v)));
    } else {
      out.appendChild(span("j-lit", JSON.stringify(v)));
    }
  }
  function show(details) {
    data(function (defs) {
      var pre = details.querySelector("pre");
      var d = defs[details.dataset.tool];
      if (!pre || !d || !d.d || pre.dataset.done) { return; }
      var marks = {};
      (d.m || []).forEach(function (m) { marks[m.p.join("\u0000")] = m.t; });
      print(pre, d.d, [], marks, 0);
      pre.dataset.done = "1";
    });
  }
  document.addEventListener("toggle", function (e) {
    if (e.target.matches && e.target.matches("details.definition") && e.target.open) { show(e.target); }
  }, true);

  // Cards drawn on demand: a screen ahead of the view, when linked to,
  // before printing (the bodies are unpacked once the page is idle, so
  // that printing finds them ready).
  var watch = null;
  function draw(card, then) {
    if (card.classList.contains("lazy")) {
      card.classList.remove("lazy");
      if (watch) { watch.unobserve(card); }
      data(function (defs) {
        var d = defs[card.id];
        if (d && d.h) {
          card.insertAdjacentHTML("beforeend", d.h);
        } else if (unpackErr) {
          var p = document.createElement("p");
          p.className = "error";
          p.textContent = unpackErr;
          card.appendChild(p);
        }
      });
    }
    if (then) { data(function () { then(card); }); }
  }
  function drawAll(then) {
    document.querySelectorAll("article.card.lazy").forEach(function (c) { draw(c); });
    data(function () { if (then) { then(); } });
  }
  var lazy = document.querySelectorAll("article.card.lazy");
  if (lazy.length > 0) {
    if ("IntersectionObserver" in window) {
      watch = new IntersectionObserver(function (entries) {
        entries.forEach(function (e) { if (e.isIntersecting) { draw(e.target); } });
      }, {rootMargin: "100% 0px"});
      lazy.forEach(function (c) { watch.observe(c); });
    } else {
      drawAll();
    }
    window.addEventListener("load", function () {
      (window.requestIdleCallback || setTimeout)(function () { data(function () {}); });
    });
  }
  // rubricCard draws the card of that id, if there is one, and calls then
  // with it once drawn.
  window.rubricCard = function (id, then) {
    var card = document.getElementById(id);
    if (card && card.classList.contains("card")) { draw(card, then); }
  };
  // rubricShowCards draws every card; its promise settles once they are.
  window.rubricShowCards = function () {
    return new Promise(function (done) { drawAll(done); });
  };
  // rubricShowDefinitions draws every card and prints every definition.
  window.rubricShowDefinitions = function () {
    return new Promise(function (done) {
      drawAll(function () {
        document.querySelectorAll("details.definition").forEach(show);
        data(function () { done(); });
      });
    });
  };
})();

// Sorting and filtering of the tool table. The page works without it:
// the table is written worst first, and every card's heading is in the
// page (on a small page, every card whole).
(function () {
  "use strict";
  var table = document.getElementById("tool-table");
  if (!table) { return; }
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var heads = table.tHead.rows[0].cells;
  var filter = document.getElementById("filter");
  var grade = document.getElementById("grade-filter");
  var shown = document.getElementById("shown");
  var key = "score", dir = 1;

  function value(row, k) {
    switch (k) {
      case "name": return row.dataset.name;
      case "grade": return row.dataset.grade;
      case "issues": return Number(row.dataset.issues);
      default: return Number(row.dataset.score);
    }
  }
  function compare(a, b) {
    var x = value(a, key), y = value(b, key);
    if (x < y) { return -dir; }
    if (x > y) { return dir; }
    return Number(a.dataset.rank) - Number(b.dataset.rank);
  }
  function sort(k) {
    dir = (k === key) ? -dir : 1;
    key = k;
    rows.sort(compare);
    var frag = document.createDocumentFragment();
    rows.forEach(function (r) { frag.appendChild(r); });
    body.appendChild(frag);
    for (var i = 0; i < heads.length; i++) {
      var b = heads[i].querySelector("button");
      heads[i].setAttribute("aria-sort", b && b.dataset.key === key ? (dir > 0 ? "ascending" : "descending") : "none");
    }
  }
  function apply() {
    var q = filter.value.trim().toLowerCase(), g = grade.value, n = 0;
    rows.forEach(function (r) {
      var ok = (q === "" || r.dataset.name.toLowerCase().indexOf(q) >= 0) && (g === "" || r.dataset.grade === g);
      r.hidden = !ok;
      if (ok) { n++; }
    });
    shown.textContent = n + " of " + rows.length + (rows.length === 1 ? " tool" : " tools") + " shown";
  }
  table.tHead.addEventListener("click", function (e) {
    var b = e.target.closest("button[data-key]");
    if (b) { sort(b.dataset.key); }
  });
  filter.addEventListener("input", apply);
  grade.addEventListener("change", apply);
  // A link to a tool draws its card and opens its definition.
  function follow() {
    window.rubricCard(decodeURIComponent(location.hash.slice(1)), function (card) {
      var d = card.querySelector("details.definition");
      if (d) { d.open = true; }
    });
  }
  window.addEventListener("hashchange", follow);
  if (location.hash) { follow(); }
  window.addEventListener("beforeprint", function () {
    // Synchronous once the cards are unpacked, which the page does when idle.
    window.rubricShowDefinitions();
    document.querySelectorAll("details").forEach(function (d) { d.open = true; });
  });
})();
