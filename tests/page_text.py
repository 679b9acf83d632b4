"""Reading a written report page as a reader does: its visible text, headlines and sections."""
import html
import re


def text_of(page: str) -> str:
    """The page's visible text, tags removed and entities decoded, on one line."""
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    return re.sub(r" ([,;:)])", r"\1", text)


def headlines(page: str) -> list[str]:
    """The headline sentences of the page's summary."""
    summary = re.search(r'<section class="summary" id="summary">(.*?)</section>', page, re.S).group(1)
    return [text_of(item) for item in re.findall(r"<li>(.*?)</li>", summary, re.S)]


def section(page: str, section_id: str) -> str:
    """The HTML of the page's section ``section_id``."""
    return re.search(rf'<section id="{section_id}"[^>]*>(.*?)</section>', page, re.S).group(1)
