"""Request and notification handlers, one module per concern (`mfls.lsp.routes`
registers them)."""
