"""A shown Matplotlib figure's PNG from one draw, taught to the kernel as it starts.

IPython's inline backend prints a figure with `bbox_inches="tight"`, which lays the figure
out twice before it draws it: once to place its parts and once to measure them. That is
most of a plot cell's time. Here the figure is drawn once, as it is, and the picture is
cropped to what was drawn and every axes' box, with the same padding: the picture the
tight box gives, to a few pixels (it measures text by its box, this by its ink), for a
figure whose parts all lie on its canvas. IPython prints, as before, a figure with
anything the tight box would grow the picture to show (a legend, title or text placed
outside the canvas, an axes past its edge, drawing closer to the border than the
padding), subfigures, a canvas other than Agg, and any other setting (another format,
print options of one's own, transparency). The driver sends this source (after
formats.py) as a silent cell.
"""


def _sandpiper_figures():
    import functools
    import io
    import sys
    from binascii import b2a_base64

    from IPython import get_ipython
    from IPython.core import pylabtools
    from IPython.core.formatters import PNGFormatter

    def inside(extent, width, height):
        return extent.x0 >= 0 and extent.y0 >= 0 and extent.x1 <= width and extent.y1 <= height

    def all_on_canvas(figure, renderer):
        """Whether every part that can lie wholly beyond the drawn canvas lies on it."""
        width, height = figure.bbox.width, figure.bbox.height
        loose = list(figure.legends) + list(figure.texts)
        for ax in figure.axes:
            if ax.get_visible() and not inside(ax.bbox, width, height):
                return False
            loose += [*ax.texts, *ax.artists, *filter(None, [ax.get_legend()])]
            loose += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label]
        return all(
            not artist.get_visible() or inside(artist.get_window_extent(renderer), width, height)
            for artist in loose
        )

    def drawn_once(figure):
        """The tight PNG of `figure` from one draw, or None where that is not the same."""
        import math

        import matplotlib
        import matplotlib.image
        import numpy
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        plain = isinstance(figure.canvas, FigureCanvasAgg) and not getattr(figure, "subfigs", None)
        if not plain or matplotlib.rcParams["savefig.transparent"]:
            return None
        figure.canvas.draw()
        if not all_on_canvas(figure, figure.canvas.get_renderer()):
            return None
        pixels = numpy.asarray(figure.canvas.buffer_rgba())
        words = pixels.view(numpy.uint32)[:, :, 0]
        drawn = words != words[0, 0]
        height, width = drawn.shape
        rows, columns = numpy.flatnonzero(drawn.any(axis=1)), numpy.flatnonzero(drawn.any(axis=0))
        # The tight box holds what was drawn and every axes' whole box, blank or not (a
        # pie's, one with its axis off).
        boxes = [ax.bbox for ax in figure.axes if ax.get_visible()]
        lefts = [*columns[:1], *(math.floor(box.x0) for box in boxes)]
        rights = [*(columns[-1:] + 1), *(math.ceil(box.x1) for box in boxes)]
        tops = [*rows[:1], *(math.floor(height - box.y1) for box in boxes)]
        bottoms = [*(rows[-1:] + 1), *(math.ceil(height - box.y0) for box in boxes)]
        if not lefts:
            return None
        pad = int(round(matplotlib.rcParams["savefig.pad_inches"] * figure.dpi))
        left, right = min(lefts) - pad, max(rights) + pad
        top, bottom = min(tops) - pad, max(bottoms) + pad
        if top < 0 or left < 0 or bottom > height or right > width:
            return None  # the tight box would grow the picture past the canvas
        picture = io.BytesIO()
        cropped = numpy.ascontiguousarray(pixels[top:bottom, left:right])
        matplotlib.image.imsave(picture, cropped, format="png", origin="upper", dpi=figure.dpi)
        return picture.getvalue()

    def plain_tight_png(printer):
        """Whether the printer the inline backend set is IPython's PNG print with no options."""
        return (
            isinstance(printer, functools.partial)
            and printer.func is pylabtools.print_figure
            and not printer.args
            and printer.keywords in ({"fmt": "png", "base64": True}, {"fmt": "png", "base64": True, "bbox_inches": "tight"})
        )

    class OnceDrawnPNG(PNGFormatter):
        def __call__(self, obj):
            figures = sys.modules.get("matplotlib.figure")
            if self.enabled and figures is not None and isinstance(obj, figures.Figure) and (obj.axes or obj.lines):
                printer = self.type_printers.get(figures.Figure)
                if plain_tight_png(printer):
                    try:
                        data = drawn_once(obj)
                    except Exception:  # printed as IPython prints it
                        data = None
                    if data is not None:
                        return b2a_base64(data).decode("ascii")
            return super().__call__(obj)

    display = get_ipython().display_formatter
    current = display.formatters["image/png"]
    replaced = OnceDrawnPNG(parent=display)
    replaced.type_printers.update(current.type_printers)
    replaced.deferred_printers.update(current.deferred_printers)
    display.formatters["image/png"] = replaced


_sandpiper_figures()
del _sandpiper_figures
