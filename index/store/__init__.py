"""The document store: parsed records on disk (``disk``), where it lives (``home``), and the
library of stored documents with the shipped seeds ingested on first use (``library``)."""
