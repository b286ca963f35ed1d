"""Full-text search: analyzers (``analysis``), the whoosh index (``whoosh_index``), reading a
query (``syntax``, ``query``), re-ranking (``rerank``), and what a hit is (``hits``, ``snippets``)."""

from regelwerk.ingest.model.lean_whoosh import prepare

prepare()  # before any whoosh import: whoosh without the modules it loads for nothing
