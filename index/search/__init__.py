"""Full-text search: analyzers (``analysis``), the whoosh index (``whoosh_index``), reading a
query (``syntax``, ``query``), re-ranking (``rerank``), and what a hit is (``hits``, ``snippets``)."""
