// The code map page: the drawing (Cytoscape.js), its controls, and the lists that let a keyboard
// choose what a mouse clicks. Whatever is chosen opens in the panel (#panel), loaded by htmx.
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
  var dark = window.matchMedia("(prefers-color-scheme: dark)");

  var LABEL_PX = 13;
  var MIN_LABEL_PX = 7;
  var MAX_FIT_ZOOM = 1.4;
  var HOVER_LABEL_PX = 13;

  function cssVar(name, fallback) {
    var value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    return value || fallback;
  }

  function styles() {
    var fg = cssVar("--fg", "#1b1b1f");
    var bg = cssVar("--panel", "#f6f6f7");
    var accent = cssVar("--accent", "#0b57d0");
    return [
      {
        selector: "node",
        style: {
          label: "data(label)",
          "font-size": LABEL_PX,
          color: fg,
          "text-outline-color": bg,
          "text-outline-width": 2,
          "text-valign": "bottom",
          "text-margin-y": 4,
          // A label too small to read once the drawing is fitted is not drawn (hover or zoom in):
          // a smudge of letters helps nobody.
          "min-zoomed-font-size": MIN_LABEL_PX,
          "background-color": cssVar("--node-module", "#475569"),
          width: "mapData(size, 1, 60, 14, 44)",
          height: "mapData(size, 1, 60, 14, 44)"
        }
      },
      { selector: 'node[kind = "area"]', style: { "background-color": cssVar("--node-area", accent) } },
      {
        selector: "edge",
        style: {
          width: "mapData(count, 1, 40, 1.5, 7)",
          "curve-style": "bezier",
          "target-arrow-shape": "triangle",
          "arrow-scale": 1.1,
          opacity: 0.85,
          "line-color": cssVar("--kind-imports", "#2563eb"),
          "target-arrow-color": cssVar("--kind-imports", "#2563eb")
        }
      },
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
    minZoom: 0.1,
    maxZoom: 5,
    boxSelectionEnabled: false,
    selectionType: "single"
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
      cy.getElementById(d.source).data("label") + " → " +
      cy.getElementById(d.target).data("label") + " (" + d.kind.replace("_", " ") +
      (d.count > 1 ? ", " + d.count : "") + ")"
    );
  }

  function fillLists() {
    nodeList.textContent = "";
    cy.nodes().sort(function (a, b) {
      return a.data("label").localeCompare(b.data("label"));
    }).forEach(function (node) {
      nodeList.add(new Option(node.data("label"), node.id()));
    });
    edgeList.textContent = "";
    cy.edges().filter(function (edge) {
      return edge.style("display") !== "none";
    }).forEach(function (edge) {
      edgeList.add(new Option(edgeText(edge), edge.id()));
    });
  }

  function applyKinds() {
    var on = enabledKinds();
    cy.edges().forEach(function (edge) {
      edge.style("display", on[edge.data("kind")] === false ? "none" : "element");
    });
    fillLists();
  }

  // Force-directed layouts keep nodes apart, not their labels: a crowd of modules drew
  // "click.parser" over "click.core". So after the layout, every two boxes (a node with its
  // label, and a little air) that overlap are pushed apart along the axis where they overlap
  // least, until none do. Deterministic, and done in the graph's own units, so no zoom makes
  // two labels meet.
  var AIR = 10;
  function separateLabels() {
    var nodes = cy.nodes();
    var boxes = nodes.map(function (node) {
      var p = node.position();
      var b = node.boundingBox({ includeLabels: true, includeEdges: false, includeOverlays: false });
      return { x: p.x, y: p.y, left: b.x1 - p.x - AIR, right: b.x2 - p.x + AIR, top: b.y1 - p.y - AIR, bottom: b.y2 - p.y + AIR };
    });
    for (var round = 0; round < 500; round++) {
      var moved = false;
      for (var i = 0; i < boxes.length; i++) {
        for (var j = i + 1; j < boxes.length; j++) {
          var a = boxes[i], b = boxes[j];
          var dx = Math.min(a.x + a.right, b.x + b.right) - Math.max(a.x + a.left, b.x + b.left);
          var dy = Math.min(a.y + a.bottom, b.y + b.bottom) - Math.max(a.y + a.top, b.y + b.top);
          if (dx <= 0 || dy <= 0) continue;
          moved = true;
          if (dx < dy) {
            var sx = (a.x + (a.left + a.right) / 2 <= b.x + (b.left + b.right) / 2 ? 1 : -1) * (dx / 2 + 0.5);
            a.x -= sx;
            b.x += sx;
          } else {
            var sy = (a.y + (a.top + a.bottom) / 2 <= b.y + (b.top + b.bottom) / 2 ? 1 : -1) * (dy / 2 + 0.5);
            a.y -= sy;
            b.y += sy;
          }
        }
      }
      if (!moved) break;
    }
    nodes.forEach(function (node, k) { node.position({ x: boxes[k].x, y: boxes[k].y }); });
  }

  function draw(data) {
    cy.elements().remove();
    cy.add(data.nodes.map(function (n) { return { group: "nodes", data: n }; }));
    cy.add(data.edges.map(function (e) { return { group: "edges", data: e }; }));
    applyKinds();
    cy.layout({
      name: "cose",
      animate: false,
      padding: 24,
      nodeDimensionsIncludeLabels: true,
      randomize: false,
      idealEdgeLength: function () { return 60; },
      nodeRepulsion: function () { return 40000; }
    }).run();
    separateLabels();
    cy.fit(undefined, 24);
    if (cy.zoom() > MAX_FIT_ZOOM) {  // a few nodes: keep labels at their size, not poster-sized
      cy.zoom(MAX_FIT_ZOOM);
      cy.center();
    }
    var what = state.level === "area" ? "areas" : "modules" + (state.area ? " of " + state.area : "");
    var small = LABEL_PX * cy.zoom() < MIN_LABEL_PX ? " Labels are too small at this size: hover a node or zoom in." : "";
    say(data.nodes.length + " " + what + ", " + data.edges.length + " edges drawn." + small);
    box.dataset.ready = "true";
  }

  function load() {
    box.dataset.ready = "false";
    say("Drawing…");
    var query = "?level=" + state.level + (state.area ? "&area=" + encodeURIComponent(state.area) : "");
    history.replaceState(null, "", base + query);
    fetch(base + "/graph.json" + query, { headers: { Accept: "application/json" } })
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
    window.htmx.ajax("GET", url, { target: "#panel", select: "#panel", swap: "outerHTML" });
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
      base + "/edges?level=" + state.level + "&from=" + encodeURIComponent(d.source) +
      "&kind=" + encodeURIComponent(d.kind) + "&to=" + encodeURIComponent(d.target)
    );
  }

  // A hovered node shows its label at a readable size, over the others, whatever the zoom.
  var LABEL_STYLE = "min-zoomed-font-size font-size z-index text-background-color text-background-opacity text-background-padding";
  cy.on("mouseover", "node", function (event) {
    event.target.style({
      "min-zoomed-font-size": 0,
      "font-size": Math.max(LABEL_PX, HOVER_LABEL_PX / cy.zoom()),
      "z-index": 10,
      "text-background-color": cssVar("--panel", "#f6f6f7"),
      "text-background-opacity": 0.9,
      "text-background-padding": 2
    });
  });
  cy.on("mouseout", "node", function (event) { event.target.removeStyle(LABEL_STYLE); });
  cy.on("tap", "node", function (event) { openNode(event.target.id()); });
  cy.on("tap", "edge", function (event) { openEdge(event.target.id()); });

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

  var kinds = document.querySelectorAll('input[name="kind"]');
  for (var k = 0; k < kinds.length; k++) kinds[k].addEventListener("change", applyKinds);

  function zoomBy(factor) {
    cy.zoom({
      level: cy.zoom() * factor,
      renderedPosition: { x: box.clientWidth / 2, y: box.clientHeight / 2 }
    });
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
