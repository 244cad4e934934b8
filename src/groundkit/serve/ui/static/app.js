// groundkit's pages: keyboard shortcuts, citation markers that light up their quotes, and the
// cited span brought into view. Everything here listens on the document, so parts of a page
// that htmx swaps in work as the first page did.
(function () {
  "use strict";

  function typing(el) {
    if (!el || !el.tagName) return false;
    var tag = el.tagName.toLowerCase();
    return tag === "input" || tag === "textarea" || tag === "select" || el.isContentEditable;
  }

  function searchBox() {
    return document.querySelector("[data-search-box]");
  }

  // "/" focuses the search box; arrows move between the search box and the results; Enter
  // opens a result (it is a link).
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (event.key === "/" && !typing(target)) {
      var box = searchBox();
      if (box) {
        event.preventDefault();
        box.focus();
        box.select();
      }
      return;
    }
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    var items = Array.prototype.slice.call(
      document.querySelectorAll("[data-nav-list] [data-nav-item]")
    );
    if (!items.length) return;
    var index = items.indexOf(target);
    var fromBox = target === searchBox();
    if (index < 0 && !fromBox) return;
    event.preventDefault();
    var next = event.key === "ArrowDown" ? Math.min(index + 1, items.length - 1) : index - 1;
    if (next < 0) {
      searchBox().focus();
    } else {
      items[next].focus();
    }
  });

  // A citation marker, hovered or focused, lights up its quote inside its evidence item.
  function light(marker, on) {
    var quotes = document.querySelectorAll('.q[data-markers~="' + marker + '"]');
    for (var i = 0; i < quotes.length; i++) quotes[i].classList.toggle("lit", on);
    return quotes;
  }
  function markerOf(el) {
    return el && el.closest ? el.closest("a.marker[data-marker]") : null;
  }
  document.addEventListener("mouseover", function (event) {
    var marker = markerOf(event.target);
    if (marker) light(marker.dataset.marker, true);
  });
  document.addEventListener("mouseout", function (event) {
    var marker = markerOf(event.target);
    if (marker && !marker.contains(event.relatedTarget)) light(marker.dataset.marker, false);
  });
  document.addEventListener("focusin", function (event) {
    var marker = markerOf(event.target);
    if (!marker) return;
    var quotes = light(marker.dataset.marker, true);
    if (quotes.length) quotes[0].scrollIntoView({ block: "nearest" });
  });
  document.addEventListener("focusout", function (event) {
    var marker = markerOf(event.target);
    if (marker) light(marker.dataset.marker, false);
  });

  // The document view: its text box opened at the cited span. The stylesheet does it
  // (scroll-initial-target); a browser that does not know that property gets it done here,
  // inside the box only: the page stays at its top.
  function showCited() {
    var start = document.querySelector(".cited-start");
    if (!start || (window.CSS && CSS.supports("scroll-initial-target: nearest"))) return;
    var box = start.closest("pre");
    box.scrollTop += start.getBoundingClientRect().top - box.getBoundingClientRect().top;
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", showCited);
  } else {
    showCited();
  }

  // A search's URL keeps only what differs from the defaults: short enough to share.
  var DEFAULTS = { mode: "auto", k: "10" };
  document.addEventListener("htmx:configRequest", function (event) {
    if (event.detail.verb !== "get") return;
    var params = event.detail.parameters;
    Object.keys(DEFAULTS).concat(["source", "where"]).forEach(function (name) {
      var value = params[name];
      if (value === "" || value === DEFAULTS[name]) delete params[name];
    });
  });

  // A region being reloaded says so to assistive technology.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var region = event.detail && event.detail.target;
    if (region && region.setAttribute) region.setAttribute("aria-busy", "true");
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var region = event.detail && event.detail.target;
    if (region && region.removeAttribute) region.removeAttribute("aria-busy");
  });
})();
