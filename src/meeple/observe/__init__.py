"""What an operator watches a running server by, below the web layer: the settings of it
(:mod:`meeple.observe.settings`). The figures for Prometheus are ``meeple.web.metrics``."""
