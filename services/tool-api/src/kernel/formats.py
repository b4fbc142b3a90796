"""E2B's extra result fields, taught to the kernel as it starts.

The driver (driver.py) sends this source, with figures.py and pictures.py, as a silent
cell after every kernel start. It
adds to what IPython shows the data E2B's results carry: a Matplotlib figure's `chart`
(the type — line, scatter, bar, pie, box and whisker, a "superchart" of several axes,
else unknown —,
title, labels and units, ticks and scales, and the elements, in the shapes
e2b_code_interpreter's charts.py reads), a pandas DataFrame's `data` (its columns), and
`json` for a list or dict. Nothing here is imported until such an object is shown, nothing is
left in the user's namespace, and an object that cannot be read gets no extra field,
never an error in the cell.
"""


def _sandpiper_formats():
    import json
    import math
    import re
    import sys

    from IPython import get_ipython
    from IPython.core.formatters import BaseFormatter
    from traitlets import ObjectName, Unicode

    unit = re.compile(r"\s\((.*?)\)|\[(.*?)\]")

    def value(item):
        """A point or cell as JSON: a number (NaN as null), a date's ISO text, or text."""
        if hasattr(item, "isoformat"):
            return item.isoformat()
        if type(item).__name__ == "datetime64":
            return str(item.astype("datetime64[s]"))
        if hasattr(item, "item"):
            item = item.item()
        if isinstance(item, float) and not math.isfinite(item):
            return None
        return item if isinstance(item, (int, float, str)) else str(item)

    def is_dates(axis):
        import matplotlib.dates as dates

        formatter = axis.get_major_formatter()
        return isinstance(formatter, (dates.DateFormatter, dates.AutoDateFormatter, dates.ConciseDateFormatter))

    def labelled(ax, kind):
        title, x_label, y_label = ax.get_title() or None, ax.get_xlabel() or None, ax.get_ylabel() or None
        chart = {"type": kind, "title": title, "elements": [], "x_label": x_label, "y_label": y_label}
        for axis_label, key in ((x_label, "x_unit"), (y_label, "y_unit")):
            found = unit.search(axis_label or "")
            chart[key] = (found.group(1) or found.group(2)) if found else None
        return chart

    def axis_info(ax, name):
        import matplotlib.dates as dates

        axis = getattr(ax, f"{name}axis")
        labels = [text.get_text() for text in axis.get_ticklabels()]
        ticks = list(axis.get_ticklocs())
        if is_dates(axis):
            return [dates.num2date(tick).isoformat() for tick in ticks], labels, "datetime"
        ticks = [float(tick) for tick in ticks]
        scale = getattr(ax, f"get_{name}scale")()
        categorical = scale == "linear" and labels and all(
            tick == at and label != str(at) for at, (tick, label) in enumerate(zip(ticks, labels))
        )
        return ticks, labels, "categorical" if categorical else scale

    def points(ax, kind, elements):
        chart = labelled(ax, kind)
        for name in ("x", "y"):
            ticks, labels, scale = axis_info(ax, name)
            chart.update({f"{name}_ticks": ticks, f"{name}_tick_labels": labels, f"{name}_scale": scale})
        chart["elements"] = elements
        return chart

    def line(ax):
        elements = []
        for at, drawn in enumerate(ax.get_lines()):
            label = drawn.get_label()
            label = f"Line {at}" if label.startswith("_") else label
            pairs = zip(drawn.get_xdata(), drawn.get_ydata())
            elements.append({"label": label, "points": [[value(x), value(y)] for x, y in pairs]})
        return points(ax, "line", elements)

    def scatter(ax):
        elements = [
            {"label": drawn.get_label(), "points": [[value(x), value(y)] for x, y in drawn.get_offsets()]}
            for drawn in ax.collections
        ]
        return points(ax, "scatter", elements)

    def bar(ax):
        chart = labelled(ax, "bar")
        for at, container in enumerate(ax.containers):
            group = container.get_label()
            group = f"Group {at}" if not group or group.startswith("_") else group
            bars = list(container)
            sideways = len(bars) > 1 and len({b.get_height() for b in bars}) == 1 and len({b.get_width() for b in bars}) > 1
            axis = ax.yaxis if sideways else ax.xaxis
            names = {round(float(tick), 6): text.get_text() for tick, text in zip(axis.get_ticklocs(), axis.get_ticklabels())}
            for drawn in bars:
                centre = drawn.get_y() + drawn.get_height() / 2 if sideways else drawn.get_x() + drawn.get_width() / 2
                size = drawn.get_width() if sideways else drawn.get_height()
                name = names.get(round(float(centre), 6), str(value(centre)))
                chart["elements"].append({"label": name, "group": group, "value": float(size)})
            if sideways:
                chart["x_label"], chart["y_label"] = chart["y_label"], chart["x_label"]
                chart["x_unit"], chart["y_unit"] = chart["y_unit"], chart["x_unit"]
        return chart

    def pie(ax):
        wedges = [
            {"label": w.get_label(), "angle": round(abs(float(w.theta2) - float(w.theta1)), 4), "radius": float(w.r)}
            for w in ax.patches
        ]
        return {"type": "pie", "title": ax.get_title() or None, "elements": wedges}

    def box_and_whisker(ax):
        """Boxes as `boxplot(patch_artist=True)` draws them: each box's patch spans the
        quartiles, its whiskers run from them to the ends along the box's centre line, its
        median crosses it, and its fliers (markers, no line) are the outliers. The plot is
        read upright or on its side, whichever finds more whiskers."""
        import numpy
        from matplotlib.patches import PathPatch

        lines = [(drawn, numpy.asarray(drawn.get_xdata(), float), numpy.asarray(drawn.get_ydata(), float)) for drawn in ax.get_lines()]
        boxes = [patch.get_path().vertices for patch in ax.patches if isinstance(patch, PathPatch)]

        def read(box, upright):
            across, along = (box[:, 0], box[:, 1]) if upright else (box[:, 1], box[:, 0])
            low, high = across.min(), across.max()
            centre, first, third = (low + high) / 2, along.min(), along.max()
            found = {"centre": centre, "first_quartile": float(first), "third_quartile": float(third)}
            ends, median, markers = [], None, []
            for drawn, xs, ys in lines:
                at, values = (xs, ys) if upright else (ys, xs)
                if not len(at) or at.min() < low or at.max() > high:
                    continue
                if drawn.get_linestyle() in ("None", "none", "", " "):
                    markers += [float(v) for v in values]
                elif len(at) == 2 and values[0] != values[1] and numpy.isclose(at, centre).all():
                    ends += list(values)
                elif median is None and len(at) == 2 and values[0] == values[1] and numpy.isclose([at.min(), at.max()], [low, high]).all():
                    median = values[0]  # the first line across: a mean drawn as a line comes later
            found.update(min=float(min(ends, default=first)), max=float(max(ends, default=third)))
            found["median"] = float(median) if median is not None else None
            # Markers between the whisker ends are the mean's, not outliers.
            found["outliers"] = [v for v in markers if v < found["min"] or v > found["max"]]
            return found, len(ends)

        upright_ends, side_ends = (sum(read(box, way)[1] for box in boxes) for way in (True, False))
        if not upright_ends and not side_ends:
            return None  # patches without whiskers: not a box plot
        upright = upright_ends >= side_ends
        chart = labelled(ax, "box_and_whisker")
        axis = ax.xaxis if upright else ax.yaxis
        names = {round(float(tick), 6): text.get_text() for tick, text in zip(axis.get_ticklocs(), axis.get_ticklabels())}
        for box in boxes:
            found, _ = read(box, upright)
            centre = found.pop("centre")
            chart["elements"].append({"label": names.get(round(float(centre), 6), str(value(centre))), **found})
        if not upright:
            chart["x_label"], chart["y_label"] = chart["y_label"], chart["x_label"]
            chart["x_unit"], chart["y_unit"] = chart["y_unit"], chart["x_unit"]
        return chart

    def chart_of_axes(ax):
        from matplotlib.collections import PathCollection
        from matplotlib.lines import Line2D
        from matplotlib.patches import PathPatch, Rectangle, Wedge
        from matplotlib.text import Text

        drawn = [artist for artist in getattr(ax, "_children", []) if not isinstance(artist, Text)]
        # Exactly PathPatch: its kinds, such as StepPatch (`stairs`), are no boxes.
        boxes = any(type(artist) is PathPatch for artist in drawn)
        if boxes and all(type(artist) is PathPatch or isinstance(artist, Line2D) for artist in drawn):
            chart = box_and_whisker(ax)
            if chart is not None:
                return chart
        for kind, read in ((Line2D, line), (PathCollection, scatter), (Wedge, pie), (Rectangle, bar)):
            if drawn and all(isinstance(artist, kind) for artist in drawn):
                return read(ax)
        return {"type": "unknown", "title": ax.get_title() or None, "elements": []}

    def chart_of_figure(figure):
        try:
            axes = [ax for ax in figure.get_axes() if ax.has_data()]
            if len(axes) == 1:
                return chart_of_axes(axes[0])
            if axes:
                title = figure._suptitle.get_text() if figure._suptitle is not None else None
                return {"type": "superchart", "title": title, "elements": [chart_of_axes(ax) for ax in axes]}
        except Exception:  # a figure this cannot read shows without its data
            pass
        return None

    def data_of_frame(frame):
        """A DataFrame's columns as lists, dates as ISO text (E2B's `data`)."""
        try:
            columns = frame.to_dict(orient="list")
            return {str(name): [value(cell) for cell in cells] for name, cells in columns.items()}
        except Exception:  # a frame this cannot read shows without its data
            return None

    class Extractor(BaseFormatter):
        """Reads objects of one class, looked up when shown: the inline backend drops
        whatever is registered for figures once Matplotlib loads, and a class looked up by
        name would import its library for every value shown."""

        _return_type = dict
        module, name, read = "", "", None

        def __call__(self, obj):
            library = sys.modules.get(self.module)
            kind = getattr(library, self.name, None) if library is not None else None
            return self.read(obj) if kind is not None and isinstance(obj, kind) else None

    class ChartFormatter(Extractor):
        format_type = Unicode("e2b/chart")
        print_method = ObjectName("_repr_e2b_chart_")
        module, name, read = "matplotlib.figure", "Figure", staticmethod(chart_of_figure)

    class DataFormatter(Extractor):
        format_type = Unicode("e2b/data")
        print_method = ObjectName("_repr_e2b_data_")
        module, name, read = "pandas", "DataFrame", staticmethod(data_of_frame)

    def plain(item):
        """NumPy's numbers and arrays as JSON has them."""
        if hasattr(item, "tolist"):
            return item.tolist()
        raise TypeError(type(item).__name__)

    def json_of(values):
        try:
            return json.loads(json.dumps(values, allow_nan=False, default=plain))
        except (TypeError, ValueError):  # not JSON: text only
            return None

    display = get_ipython().display_formatter
    for extractor in (ChartFormatter, DataFormatter):
        display.formatters[extractor.format_type.default_value] = extractor(parent=display)
    for kind in (list, dict):
        display.formatters["application/json"].for_type(kind, json_of)


_sandpiper_formats()
del _sandpiper_formats
