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
  });
})();
