"""Fetching a CR release from the web: find the .txt link on Wizards' rules page, download it.

Bytes only: what comes back goes through ``parse_bytes`` like any file. Network trouble (no
connection, a timeout, an HTTP error, a page without a .txt link) is a `FetchError` with one
line saying what failed and where, never a traceback.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import urljoin

from regelwerk.ingest.model.errors import RegelwerkError
from regelwerk.ingest.model.message import N_, msg

#: Where Wizards links the current Comprehensive Rules.
RULES_PAGE = "https://magic.wizards.com/en/rules"
#: Larger than any release (UTF-16 files are about 2 MB); a bigger body is not a CR.
MAX_BYTES = 20 * 1024 * 1024
TIMEOUT = 30.0
_CHUNK = 64 * 1024
_TXT_LINK = re.compile(r"""href\s*=\s*["']([^"'<>]+?\.txt)["']""", re.IGNORECASE)


class FetchError(RegelwerkError):
    """A page or file could not be fetched, or held no CR .txt link."""


def find_txt_link(html: str, base: str) -> str:
    """The absolute URL of the Comprehensive Rules .txt the page links (the first one whose name
    says so, else the first .txt)."""
    links = [urljoin(base, m.group(1).strip()) for m in _TXT_LINK.finditer(html)]
    if not links:
        raise FetchError(msg(
            N_("{url}: no link to a Comprehensive Rules .txt file on that page; use --url FILE_URL"), url=base
        ))
    named = [u for u in links if "comprules" in u.lower().replace(" ", "").replace("%20", "")]
    return str((named or links)[0])


def download(url: str, progress: Callable[[int, int | None], None] | None = None) -> tuple[bytes, str]:
    """(body, content type) of `url`; `progress` gets (bytes so far, total or None)."""
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, headers={"User-Agent": "regelwerk (rules reference)"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            total_header = response.headers.get("Content-Length")
            total = int(total_header) if total_header and total_header.isdigit() else None
            kind = str(response.headers.get("Content-Type") or "")
            chunks: list[bytes] = []
            size = 0
            while chunk := response.read(_CHUNK):
                size += len(chunk)
                if size > MAX_BYTES:
                    raise FetchError(msg(N_("{url}: more than {mb} MB; not a rules file"), url=url,
                                             mb=str(MAX_BYTES // 1024 // 1024)))
                chunks.append(chunk)
                if progress is not None:
                    progress(size, total)
            return b"".join(chunks), kind
    except urllib.error.HTTPError as exc:
        raise FetchError(msg(N_("{url}: the server answered {status}"), url=url,
                               status=f"{exc.code} {exc.reason}")) from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or exc
        raise FetchError(msg(N_("cannot fetch {url}: {reason} (no network?); the store is unchanged"),
                               url=url, reason=str(reason))) from None


def fetch_release(
    url: str = RULES_PAGE, progress: Callable[[int, int | None], None] | None = None
) -> tuple[str, bytes]:
    """(file URL, bytes) of the CR .txt that `url` is or links to."""
    body, kind = download(url)
    looks_html = "html" in kind.lower() or body.lstrip()[:200].lower().startswith((b"<!doctype", b"<html"))
    if not looks_html:
        return url, body
    page = body.decode("utf-8", errors="replace")
    target = find_txt_link(page, url)
    data, _ = download(target, progress)
    return target, data


__all__ = ["RULES_PAGE", "FetchError", "download", "fetch_release", "find_txt_link"]
