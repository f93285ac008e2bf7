// Tool definitions, printed when a card's definition is opened, with the
// members its issues are about marked. Text goes in as text nodes only.
(function () {
  "use strict";
  var source = document.getElementById("definitions");
  var defs = source ? JSON.parse(source.textContent) : {};
  var maxDepth = 40;

  function span(cls, text) {
    var s = document.createElement("span");
    s.className = cls;
    s.textContent = text;
    return s;
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
        at.appendChild(span("j-key", JSON.stringify(k)));
        at.appendChild(document.createTextNode(": "));
        print(at, v[k], sub, marks, depth + 1);
        out.appendChild(document.createTextNode((i < keys.length - 1 ? "," : "") + "\n"));
      });
      out.appendChild(document.createTextNode(pad + "}"));
    } else if (typeof v === "string") {
      out.appendChild(span("j-str", JSON.stringify(v)));
    } else {
      out.appendChild(span("j-lit", JSON.stringify(v)));
    }
  }
  function show(details) {
    var pre = details.querySelector("pre");
    var d = defs[details.dataset.tool];
    if (!pre || !d || pre.dataset.done) { return; }
    var marks = {};
    (d.m || []).forEach(function (m) { marks[m.p.join("\u0000")] = m.t; });
    print(pre, d.d, [], marks, 0);
    pre.dataset.done = "1";
  }
  document.addEventListener("toggle", function (e) {
    if (e.target.matches && e.target.matches("details.definition") && e.target.open) { show(e.target); }
  }, true);
  window.rubricShowDefinitions = function () {
    document.querySelectorAll("details.definition").forEach(show);
  };
})();

// Sorting and filtering of the tool table. The page works without it:
// the table is written worst first, and every card is in the page.
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
    shown.textContent = n + " of " + rows.length + " tools shown";
  }
  table.tHead.addEventListener("click", function (e) {
    var b = e.target.closest("button[data-key]");
    if (b) { sort(b.dataset.key); }
  });
  filter.addEventListener("input", apply);
  grade.addEventListener("change", apply);
  // A link to a tool opens its card's definition.
  window.addEventListener("hashchange", function () {
    var card = document.getElementById(location.hash.slice(1));
    if (card && card.classList.contains("card")) {
      var d = card.querySelector("details.definition");
      if (d) { d.open = true; }
    }
  });
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details").forEach(function (d) { d.open = true; });
    window.rubricShowDefinitions();
  });
})();
