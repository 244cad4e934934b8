// Starts Swagger UI on /docs. A file of its own, not an inline script, so the page's
// Content-Security-Policy can allow scripts from this server and nothing else.
"use strict";
window.ui = SwaggerUIBundle({
  url: document.body.dataset.openapi,
  dom_id: "#swagger-ui",
  deepLinking: true,
  // The default would show a badge fetched from the public validator: nothing leaves this server.
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
