"""The `newsdesk` command, the house's composition root: it builds the controller and the panel
and serves them, so it sits above both (controller/ never imports web_ui/ or this package, and
web_ui/ never imports this package: tests/test_layers.py)."""
