"""`stem` is called from many threads at once by the web server's searches."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from regelwerk.ingest.model.stemming import stem


def test_stem_from_many_threads_agrees_with_one_thread() -> None:
    words = [f"{base}{n}ungen" for n in range(400) for base in ("kampfschaden", "verteilung", "kreatur")]
    words += [f"{base}{n}ings" for n in range(400) for base in ("band", "trample", "assign")]
    with ThreadPoolExecutor(8) as pool:
        together = list(pool.map(lambda w: stem(w, "de" if w.endswith("ungen") else "en"), words))
    stem.cache_clear()
    alone = [stem(w, "de" if w.endswith("ungen") else "en") for w in words]
    assert together == alone
