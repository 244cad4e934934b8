// The code map page: the drawing (Cytoscape.js), its controls, and the lists that let a keyboard
// choose what a mouse clicks. Whatever is chosen opens in the panel (#panel), loaded by htmx.
//
// The server says where every box stands (serve/ui/layout.py): areas holding packages holding
// modules, each label in space of its own, the same on every load. The page only chooses what
// to show at the zoom it is at: the edges of the finest level whose labels can be read (areas
// from afar, then packages, then modules), and Cytoscape leaves out labels too small to read.
(function () {
  "use strict";

  var box = document.getElementById("graph");
  if (!box || !window.cytoscape || !window.htmx) return;

  var mapName = box.dataset.map;
  var base = "/ui/maps/" + encodeURIComponent(mapName);
  var state = { level: box.dataset.level || "area", area: box.dataset.area || "" };
  var status = document.getElementById("graph-status");
  var nodeList = document.getElementById("node-list");
  var edgeList = document.getElementById("edge-list");
  var areaFilter = document.getElementById("area-filter");
  var filterForm = document.getElementById("edge-filter");
  var dark = window.matchMedia("(prefers-color-scheme: dark)");

  var MIN_LABEL_PX = 9; // a label smaller than this on the screen is not drawn: unreadable
  var MODULE_FONT = 12; // serve/ui/layout.py's MODULE_FONT: a module label's height in units
  var MAX_FIT_ZOOM = 1.4;
  var HOVER_LABEL_PX = 13;
  var shown = { lod: "", packageFont: MODULE_FONT, counts: {}, edges: {} };

  function cssVar(name, fallback) {
    var value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    return value || fallback;
  }

  function styles() {
    var fg = cssVar("--fg", "#1b1b1f");
    var bg = cssVar("--panel", "#f6f6f7");
    var page = cssVar("--bg", "#ffffff");
    var line = cssVar("--line", "#d0d0d7");
    var accent = cssVar("--accent", "#0b57d0");
    var module = cssVar("--node-module", "#475569");
    return [
      {
        selector: "node",
        style: {
          shape: "round-rectangle",
          width: "data(w)",
          height: "data(h)",
          label: "data(label)",
          "font-size": "data(font)",
          color: fg,
          "text-valign": "center",
          "text-halign": "center",
          "min-zoomed-font-size": MIN_LABEL_PX,
          "background-color": page,
          "border-width": 1,
          "border-color": module,
          "z-index-compare": "manual",
          "z-index": 10
        }
      },
      // Boxes that hold others lie under the edges; their names are label nodes above them.
      {
        selector: 'node[kind = "area"].holder',
        style: {
          label: "",
          "background-color": accent,
          "background-opacity": 0.07,
          "border-color": accent,
          "z-index": 0
        }
      },
      {
        selector: 'node[kind = "pkg"]',
        style: { label: "", "background-color": module, "background-opacity": 0.07, "border-color": line, "z-index": 1 }
      },
      {
        selector: 'node[kind = "area"].alone',
        style: { "background-color": accent, "background-opacity": 0.15, "border-color": accent }
      },
      {
        selector: 'node[kind = "label"]',
        style: {
          width: 1,
          height: 1,
          "background-opacity": 0,
          "border-width": 0,
          "text-background-color": bg,
          "text-background-opacity": 1,
          "text-background-padding": 1,
          events: "no",
          "z-index": 30
        }
      },
      {
        selector: "edge",
        style: {
          width: "mapData(count, 1, 40, 1.2, 6)",
          "curve-style": "straight",
          // Each kind in a lane of its own between two boxes (serve/ui/graph.py's _endpoints).
          "source-endpoint": "data(source_end)",
          "target-endpoint": "data(target_end)",
          "target-arrow-shape": "triangle",
          "arrow-scale": 1,
          opacity: 0.8,
          "line-color": cssVar("--kind-imports", "#2563eb"),
          "target-arrow-color": cssVar("--kind-imports", "#2563eb"),
          "z-compound-depth": "auto",
          "z-index-compare": "manual",
          "z-index": 5
        }
      },
      { selector: "edge.off", style: { display: "none" } },
      kindStyle("calls"),
      kindStyle("inherits"),
      kindStyle("handles"),
      kindStyle("http_call"),
      {
        selector: ":selected",
        style: { "overlay-color": accent, "overlay-opacity": 0.25, "overlay-padding": 6 }
      }
    ];
  }

  function kindStyle(kind) {
    var color = cssVar("--kind-" + kind, "#888888");
    return {
      selector: 'edge[kind = "' + kind + '"]',
      style: { "line-color": color, "target-arrow-color": color }
    };
  }

  var cy = window.cytoscape({
    container: box,
    elements: [],
    style: styles(),
    layout: { name: "preset" },
    minZoom: 0.02,
    maxZoom: 5,
    boxSelectionEnabled: false,
    selectionType: "single",
    hideEdgesOnViewport: true, // a drag over thousands of edges stays smooth
    textureOnViewport: true
  });
  window.groundkitMap = cy; // for the browser tests, and the curious

  dark.addEventListener("change", function () {
    cy.style(styles());
  });

  function say(text) {
    if (status) status.textContent = text;
  }

  function enabledKinds() {
    var on = {};
    var boxes = document.querySelectorAll('input[name="kind"]');
    for (var i = 0; i < boxes.length; i++) on[boxes[i].value] = boxes[i].checked;
    return on;
  }

  function edgeText(edge) {
    var d = edge.data();
    return (
      cy.getElementById(d.source).data("name") + " → " +
      cy.getElementById(d.target).data("name") + " (" + d.kind.replace("_", " ") +
      (d.count > 1 ? ", " + d.count : "") + ")"
    );
  }

  function fillLists() {
    nodeList.textContent = "";
    var lod = shown.lod;
    cy.nodes().filter(function (node) {
      var kind = node.data("kind");
      if (kind === "label") return false;
      if (lod === "module") return kind !== "area" && kind !== "pkg";
      if (lod === "package") return kind === "pkg";
      return kind === "area";
    }).sort(function (a, b) {
      return a.data("name").localeCompare(b.data("name"));
    }).forEach(function (node) {
      nodeList.add(new Option(node.data("name"), node.id()));
    });
    edgeList.textContent = "";
    cy.edges().filter(function (edge) {
      return !edge.hasClass("off");
    }).forEach(function (edge) {
      edgeList.add(new Option(edgeText(edge), edge.id()));
    });
  }

  // The finest level whose labels can be read at this zoom: modules, then packages, then areas.
  function levelOfDetail() {
    if (state.level === "area") return "area";
    var zoom = cy.zoom();
    if (MODULE_FONT * zoom >= MIN_LABEL_PX) return "module";
    if (shown.packageFont * zoom >= MIN_LABEL_PX) return "package";
    return "area";
  }

  // Only the edges of the level shown are in the drawing: a large map has thousands at the
  // module level that nobody sees from afar. Between modules, only those whose two ends are in
  // view: the rest would cross the screen to somewhere else (the panel of a module lists them).
  function wanted(lod) {
    var all = shown.edges[lod] || [];
    if (lod !== "module" || state.level === "area") return all;
    var e = cy.extent();
    var inside = {};
    cy.nodes().forEach(function (node) {
      var p = node.position();
      if (p.x >= e.x1 && p.x <= e.x2 && p.y >= e.y1 && p.y <= e.y2) inside[node.id()] = true;
    });
    return all.filter(function (d) { return inside[d.source] && inside[d.target]; });
  }

  function applyEdges(force) {
    var lod = levelOfDetail();
    if (lod === shown.lod && !force && lod !== "module") return;
    var on = enabledKinds();
    var edges = wanted(lod);
    var key = lod + ":" + edges.length + ":" + (edges.length ? edges[0].id + edges[edges.length - 1].id : "");
    if (key === shown.key && !force) return;
    cy.batch(function () {
      cy.edges().remove();
      cy.add(edges.map(function (d) { return { group: "edges", data: d }; }));
      cy.edges().forEach(function (edge) {
        if (on[edge.data("kind")] === false) edge.addClass("off");
      });
    });
    shown.lod = lod;
    shown.key = key;
    box.dataset.lod = lod; // for the browser tests: the level whose edges are drawn
    fillLists();
    describe();
  }

  function describe() {
    var c = shown.counts;
    var what = state.level === "area"
      ? c.area + " areas"
      : c.area + " areas, " + c.pkg + " packages, " + c.module + " modules" + (state.area ? " of " + state.area : "");
    var visible = cy.edges().filter(function (e) { return !e.hasClass("off"); }).length;
    var between = state.level === "area" ? "" : " between " + (shown.lod === "package" ? "packages" : shown.lod + "s") + (shown.lod === "module" ? " in view" : "");
    var small = MODULE_FONT * cy.zoom() < MIN_LABEL_PX && shown.lod !== "area"
      ? " Module labels are too small here: hover a module or zoom in." : "";
    var hid = shown.hidden ? " The filter hid " + shown.hidden + " edge" + (shown.hidden === 1 ? "" : "s") + "." : "";
    say(what + "; " + visible + " edges" + between + "." + small + hid);
  }

  function elements(data) {
    var out = [];
    var holder = state.level !== "area";
    var fonts = [];
    data.nodes.forEach(function (n) {
      out.push({ group: "nodes", data: n, position: { x: n.x, y: n.y }, classes: holder ? "holder" : "alone" });
      if (n.kind === "pkg") fonts.push([n.font, n.size || 1]);
      if (holder && (n.kind === "area" || n.kind === "pkg")) {
        out.push({
          group: "nodes",
          data: { id: n.id + "#label", kind: "label", label: n.label, name: n.name, font: n.font, w: 1, h: 1 },
          position: { x: n.x, y: n.label_y },
          selectable: false,
          grabbable: false
        });
      }
    });
    // The package level is shown once most modules' package names can be read (a median by
    // modules, not by packages: many small packages with small names must not hold it back).
    fonts.sort(function (a, b) { return a[0] - b[0]; });
    var total = fonts.reduce(function (sum, f) { return sum + f[1]; }, 0);
    var seen = 0;
    shown.packageFont = MODULE_FONT;
    for (var f = 0; f < fonts.length; f++) {
      seen += fonts[f][1];
      if (seen * 2 >= total) { shown.packageFont = fonts[f][0]; break; }
    }
    shown.edges = { area: [], package: [], module: [] };
    data.edges.forEach(function (e) { shown.edges[e.level].push(e); });
    return out;
  }

  function draw(data) {
    cy.elements().remove();
    shown.hidden = data.hidden || 0;
    shown.counts = { area: 0, pkg: 0, module: 0 };
    data.nodes.forEach(function (n) {
      var kind = n.kind === "area" || n.kind === "pkg" ? n.kind : "module";
      shown.counts[kind] += 1;
    });
    cy.batch(function () { cy.add(elements(data)); });
    cy.nodes().ungrabify(); // the layout is the map's, the same for everyone
    cy.fit(undefined, 24);
    if (cy.zoom() > MAX_FIT_ZOOM) {  // a few nodes: keep labels at their size, not poster-sized
      cy.zoom(MAX_FIT_ZOOM);
      cy.center();
    }
    shown.lod = "";
    applyEdges(true);
    box.dataset.ready = "true";
  }

  function filterQuery() {
    if (!filterForm) return "";
    var parts = [];
    var certain = filterForm.querySelector('input[name="certain"]');
    var min = filterForm.querySelector('input[name="min_confidence"]');
    var exclude = filterForm.querySelector('input[name="exclude"]');
    if (certain && certain.checked) parts.push("certain=true");
    if (min && min.value) parts.push("min_confidence=" + encodeURIComponent(min.value));
    if (exclude && exclude.value.trim()) parts.push("exclude=" + encodeURIComponent(exclude.value.trim()));
    return parts.join("&");
  }

  function withFilter(url) {
    var query = filterQuery();
    return query ? url + (url.indexOf("?") < 0 ? "?" : "&") + query : url;
  }

  function load() {
    box.dataset.ready = "false";
    say("Drawing…");
    var query = "?level=" + state.level + (state.area ? "&area=" + encodeURIComponent(state.area) : "");
    history.replaceState(null, "", withFilter(base + query));
    fetch(withFilter(base + "/graph.json" + query), { headers: { Accept: "application/json" } })
      .then(function (response) {
        return response.json().then(function (body) {
          if (!response.ok) throw new Error(body.message || "the server refused");
          return body;
        });
      })
      .then(draw)
      .catch(function (error) {
        say("The drawing failed: " + error.message);
      });
  }

  function openPanel(url) {
    window.htmx.ajax("GET", withFilter(url), { target: "#panel", select: "#panel", swap: "outerHTML" });
  }

  function openNode(id) {
    cy.elements().unselect();
    cy.getElementById(id).select();
    nodeList.value = id;
    openPanel(base + "/node/" + encodeURIComponent(id));
  }

  function openEdge(id) {
    var edge = cy.getElementById(id);
    if (!edge.length) return;
    cy.elements().unselect();
    edge.select();
    edgeList.value = id;
    var d = edge.data();
    openPanel(
      base + "/edges?level=" + d.level + "&from=" + encodeURIComponent(d.source) +
      "&kind=" + encodeURIComponent(d.kind) + "&to=" + encodeURIComponent(d.target)
    );
  }

  // A hovered module shows its whole name at a readable size, over the others, at any zoom.
  var LABEL_STYLE = "label min-zoomed-font-size font-size z-index text-background-color text-background-opacity text-background-padding";
  cy.on("mouseover", "node", function (event) {
    var node = event.target;
    if (node.data("kind") === "label") return;
    node.style({
      label: node.data("name"),
      "min-zoomed-font-size": 0,
      "font-size": HOVER_LABEL_PX / cy.zoom(),
      "z-index": 40,
      "text-background-color": cssVar("--panel", "#f6f6f7"),
      "text-background-opacity": 0.95,
      "text-background-padding": 2
    });
  });
  cy.on("mouseout", "node", function (event) { event.target.removeStyle(LABEL_STYLE); });
  cy.on("tap", "node", function (event) { openNode(event.target.id()); });
  cy.on("tap", "edge", function (event) { openEdge(event.target.id()); });
  var moved = null;
  cy.on("viewport", function () {  // once the view settles: the edges of what is in it
    window.clearTimeout(moved);
    moved = window.setTimeout(function () { applyEdges(false); }, 120);
  });
  cy.on("zoom", function () { if (levelOfDetail() !== shown.lod) applyEdges(false); });

  var pending = null;
  function soon(fn) {
    window.clearTimeout(pending);
    pending = window.setTimeout(fn, 180); // arrowing through a list opens only where it stops
  }
  nodeList.addEventListener("change", function () {
    var id = nodeList.value;
    soon(function () { openNode(id); });
  });
  edgeList.addEventListener("change", function () {
    var id = edgeList.value;
    soon(function () { openEdge(id); });
  });

  var levels = document.querySelectorAll('input[name="level"]');
  for (var i = 0; i < levels.length; i++) {
    levels[i].addEventListener("change", function (event) {
      state.level = event.target.value;
      load();
    });
  }
  areaFilter.addEventListener("change", function () {
    state.area = areaFilter.value;
    if (state.area) setLevel("module");
    load();
  });
  function setLevel(level) {
    state.level = level;
    for (var j = 0; j < levels.length; j++) levels[j].checked = levels[j].value === level;
  }
  if (filterForm) {
    filterForm.addEventListener("change", load);
    filterForm.addEventListener("submit", function (event) {
      event.preventDefault();
      load();
    });
  }

  var kinds = document.querySelectorAll('input[name="kind"]');
  for (var k = 0; k < kinds.length; k++) kinds[k].addEventListener("change", function () { applyEdges(true); });

  function zoomBy(factor) {
    cy.zoom({
      level: cy.zoom() * factor,
      renderedPosition: { x: box.clientWidth / 2, y: box.clientHeight / 2 }
    });
    applyEdges(false); // a button or key press shows its edges at once, not once settled
  }
  document.querySelectorAll("[data-zoom]").forEach(function (button) {
    button.addEventListener("click", function () {
      var how = button.dataset.zoom;
      if (how === "in") zoomBy(1.25);
      else if (how === "out") zoomBy(0.8);
      else cy.fit(undefined, 24);
    });
  });
  box.addEventListener("keydown", function (event) {
    var step = 40;
    var moves = {
      ArrowLeft: { x: step, y: 0 },
      ArrowRight: { x: -step, y: 0 },
      ArrowUp: { x: 0, y: step },
      ArrowDown: { x: 0, y: -step }
    };
    if (moves[event.key]) cy.panBy(moves[event.key]);
    else if (event.key === "+" || event.key === "=") zoomBy(1.25);
    else if (event.key === "-") zoomBy(0.8);
    else if (event.key === "0") cy.fit(undefined, 24);
    else return;
    event.preventDefault();
  });

  // Links inside the panel open in the panel; "draw its modules" redraws the graph.
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a") : null;
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (link.hasAttribute("data-show-modules")) {
      event.preventDefault();
      state.area = link.getAttribute("data-show-modules");
      areaFilter.value = state.area;
      setLevel("module");
      load();
    } else if (link.hasAttribute("data-panel-link")) {
      event.preventDefault();
      openPanel(link.getAttribute("href"));
    }
  });

  load();
})();
