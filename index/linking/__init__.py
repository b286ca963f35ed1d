"""Linking: one Keyword record per rules concept, tying sections across languages and releases
(``link`` builds them, ``keyword`` is the record, ``keyword_index`` caches and serves them)."""
