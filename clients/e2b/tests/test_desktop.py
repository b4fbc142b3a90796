"""E2B's desktop SDK on the `desktop` template: `Sandbox.create()` starts its own X server
and XFCE in the sandbox, and its screenshot, mouse, keyboard, `open` and `launch` calls
(scrot, xdotool, xrandr, xdg-open, gtk-launch run through envd's process service) see and
drive that screen. What reaches a window is read back from `xev`, a real X client that
prints every event it gets."""

import re
import time
from collections.abc import Iterator

import pytest
from e2b import TimeoutException
from e2b_desktop import Sandbox

# Not E2B's default (1024x768) nor tool-api's own desktop (1280x800): the size asked for is
# the size got.
SCREEN = (1152, 720)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
XEV_LOG = "/tmp/xev-events.log"


@pytest.fixture(scope="module")
def desktop(key: str) -> Iterator[Sandbox]:
    made = Sandbox.create(api_key=key, resolution=SCREEN, timeout=300)
    try:
        yield made
    finally:
        made.kill()


def events_window(desktop: Sandbox) -> tuple[int, int, int, int]:
    """Opens a fresh xev window logging key and button events to XEV_LOG; its x, y, width
    and height on the screen once the window manager has shown it."""
    gone = "pkill -x xev; while pgrep -x xev >/dev/null; do sleep 0.05; done"
    desktop.commands.run(f"{gone}; rm -f {XEV_LOG}", timeout=20)
    xev = f"xev -name sandpiper-events -geometry 400x300+200+150 -event keyboard -event button > {XEV_LOG}"
    desktop.commands.run(xev, background=True, timeout=0).disconnect()
    ids = visible_windows(desktop, "sandpiper-events")
    assert len(ids) == 1, ids
    shown = desktop.commands.run(f"xdotool getwindowgeometry --shell {ids[0]}").stdout
    geometry = dict(line.split("=", 1) for line in shown.split())
    return tuple(int(geometry[name]) for name in ("X", "Y", "WIDTH", "HEIGHT"))  # type: ignore[return-value]


def logged_events(desktop: Sandbox, until: str) -> list[dict[str, str]]:
    """The events xev logged, once `until` is among them (xev writes as events arrive)."""
    deadline = time.monotonic() + 15
    while True:
        log = desktop.files.read(XEV_LOG)
        if until in log or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    events = []
    for block in log.split("\n\n"):
        kind = re.match(r"(\w+) event,", block.strip())
        if not kind:
            continue
        event = {"kind": kind.group(1)}
        if root := re.search(r"root:\((-?\d+),(-?\d+)\)", block):
            event["root"] = f"{root.group(1)},{root.group(2)}"
        if button := re.search(r"button (\d+),", block):
            event["button"] = button.group(1)
        if keysym := re.search(r"\(keysym 0x[0-9a-f]+, (\w+)\)", block):
            event["keysym"] = keysym.group(1)
        events.append(event)
    return events


def test_create_brings_up_xfce_on_the_screen_asked_for(desktop: Sandbox) -> None:
    assert desktop.get_screen_size() == SCREEN
    for process in ("-f '^Xvfb :0 '", "-x xfce4-session", "-x xfwm4", "-x xfdesktop"):
        running = desktop.commands.run(f"pgrep {process} || true").stdout.split()
        assert len(running) == 1, f"{process}: {running}"
    # The window manager is XFCE's: it names itself on the root window.
    manager = desktop.commands.run(
        "xprop -root -notype _NET_SUPPORTING_WM_CHECK | grep -o '0x[0-9a-f]*$'"
        " | xargs -I{} xprop -id {} -notype _NET_WM_NAME"
    )
    assert manager.stdout.strip() == '_NET_WM_NAME = "Xfwm4"'


def test_a_screenshot_is_a_png_of_the_screen_that_shows_a_new_window(desktop: Sandbox) -> None:
    before = bytes(desktop.screenshot())
    assert before.startswith(PNG_SIGNATURE)
    assert (int.from_bytes(before[16:20], "big"), int.from_bytes(before[20:24], "big")) == SCREEN
    events_window(desktop)
    after = bytes(desktop.screenshot())
    assert after.startswith(PNG_SIGNATURE) and after != before
    # The SDK removes its screenshot files.
    assert desktop.commands.run("ls /tmp | grep -c '^screenshot-' || true").stdout.strip() == "0"


def test_the_mouse_goes_and_clicks_where_it_is_told(desktop: Sandbox) -> None:
    x, y, width, height = events_window(desktop)
    desktop.move_mouse(37, 41)
    assert desktop.get_cursor_position() == (37, 41)

    inside = (x + width // 2, y + height // 2)
    desktop.left_click(*inside)
    assert desktop.get_cursor_position() == inside
    desktop.right_click(inside[0] + 10, inside[1] + 5)
    desktop.double_click(inside[0] - 10, inside[1] - 5)
    desktop.scroll("up", amount=2)
    desktop.scroll("down")
    desktop.middle_click()

    pressed = [e for e in logged_events(desktop, "button 2,") if e["kind"] == "ButtonPress"]
    assert [(e["button"], e["root"]) for e in pressed] == [
        ("1", f"{inside[0]},{inside[1]}"),
        ("3", f"{inside[0] + 10},{inside[1] + 5}"),
        ("1", f"{inside[0] - 10},{inside[1] - 5}"),
        ("1", f"{inside[0] - 10},{inside[1] - 5}"),
        ("4", f"{inside[0] - 10},{inside[1] - 5}"),
        ("4", f"{inside[0] - 10},{inside[1] - 5}"),
        ("5", f"{inside[0] - 10},{inside[1] - 5}"),
        ("2", f"{inside[0] - 10},{inside[1] - 5}"),
    ]


def test_typing_and_keys_reach_the_window_in_focus(desktop: Sandbox) -> None:
    x, y, width, height = events_window(desktop)
    desktop.left_click(x + width // 2, y + height // 2)
    desktop.write("Hi e2b!", chunk_size=3, delay_in_ms=10)
    desktop.press("enter")
    desktop.press(["ctrl", "a"])

    keys = [e["keysym"] for e in logged_events(desktop, "Control_L") if e["kind"] == "KeyPress"]
    keys = [k for k in keys if k != "Shift_L"]
    assert keys == ["H", "i", "space", "e", "2", "b", "exclam", "Return", "Control_L", "a"]


def visible_windows(desktop: Sandbox, title: str) -> list[str]:
    """The ids of the visible windows named `title`, once there is one. Retried: a search
    fails when a window it walks past goes away, as Chromium's do while it starts."""
    search = f"until xdotool search --onlyvisible --name '^{title}$' 2>/dev/null; do sleep 0.2; done"
    return desktop.commands.run(search, timeout=30).stdout.split()


def test_a_file_opens_in_the_browser_and_the_browser_launches(desktop: Sandbox) -> None:
    quit_browser = "pkill -x chromium; while pgrep -x chromium >/dev/null; do sleep 0.1; done"
    desktop.files.write("/home/user/page.html", "<title>sandpiper-page</title><h1>Hello</h1>")
    try:
        desktop.open("/home/user/page.html")
        assert len(visible_windows(desktop, "sandpiper-page - Chromium")) == 1
        desktop.commands.run(quit_browser, timeout=20)
        assert desktop.commands.run("pgrep -x chromium || true").stdout == ""

        desktop.launch("chromium")
        assert len(visible_windows(desktop, "New Tab - Chromium")) == 1
    finally:
        desktop.commands.run(quit_browser, timeout=20)


def test_the_stream_is_not_served_here(desktop: Sandbox) -> None:
    # Its noVNC server is not in the image, and its port (6080) would not pass the one
    # address anyway: the stream fails to start, and says so.
    with pytest.raises(TimeoutException, match="noVNC"):
        desktop.stream.start()
    desktop.stream.stop()
    # The stop's `pkill` only asks: x11vnc removes its shared memory before it exits.
    gone = "for _ in $(seq 100); do pgrep -x x11vnc >/dev/null || exit 0; sleep 0.1; done"
    desktop.commands.run(gone, timeout=20)
    assert desktop.commands.run("pgrep -x x11vnc || true").stdout == ""


def test_kill_ends_a_desktop(key: str) -> None:
    made = Sandbox.create(api_key=key, timeout=120)
    assert made.get_screen_size() == (1024, 768), "E2B's default size"
    assert made.kill() is True
    assert not made.is_running()
    assert Sandbox.kill(made.sandbox_id, api_key=key) is False, "already gone"
