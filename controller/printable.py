"""Text from a stranger's file made safe to put into a sentence for a terminal or a page.

A backup's zip entry names, its tables' and indexes' names and its settings are chosen by
whoever wrote the file; a refusal that names them goes to the terminal of whoever runs
``newsdesk restore`` and to the host's page. Written raw, an escape sequence (ESC [ ...)
recolours or retitles that terminal, and a newline splits the one sentence in two.
"""


def escaped(text: str) -> str:
    """``text`` (a file's name, a value of a stranger's file) with each character that isn't
    printable (a terminal's escape codes, a newline, a bidi override) written as Python writes it
    (\\x1b, \\n, \\u202e), so what reaches a terminal or a page is only what it says."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
