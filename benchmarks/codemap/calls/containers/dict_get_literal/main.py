def plain(text):
    return text


def bold(text):
    return "**" + text + "**"


STYLES = {"plain": plain, "bold": bold}
STYLES.get("bold")("x")
