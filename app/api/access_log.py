"""Server access logs never record a secret parameter's value (`password=`).

The development server (werkzeug, `make run`) logs each request line with its query string; the
filter installed here rewrites those records. gunicorn (`make serve`) logs the path without its
query (gunicorn.conf.py, `access_log_format`).
"""

from __future__ import annotations

import logging
import re
from urllib.parse import unquote_plus

from app.api.redact import is_secret

REDACTED = "[redacted]"
# name=value inside a query: the value ends at &, whitespace, a quote or an ANSI colour escape.
_PARAMETER = re.compile(r"(?<=[?&])(?P<name>[^&=\s\"?]+)=(?P<value>[^&\s\"\x1b]*)")


def redact_query(text: str) -> str:
    """`text` with the value of every secret parameter replaced by REDACTED."""

    def replace(found: re.Match[str]) -> str:
        if is_secret(unquote_plus(found["name"])):
            return f"{found['name']}={REDACTED}"
        return found.group(0)

    return _PARAMETER.sub(replace, text)


class RedactSecrets(logging.Filter):
    """Rewrites a record whose message carries a secret parameter (its arguments are merged)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = redact_query(message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        return True


def install(logger_name: str = "werkzeug") -> None:
    """Add the filter to a logger once, however many apps a process builds."""
    logger = logging.getLogger(logger_name)
    if not any(isinstance(f, RedactSecrets) for f in logger.filters):
        logger.addFilter(RedactSecrets())
