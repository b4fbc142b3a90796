"""A Pillow image's `show()` shown as the cell's picture, taught to the kernel as it starts.

Pillow hands `Image.show()` to an outside viewer program, which a kernel has no screen
for (or, with the desktop up, would open a window nobody asked for); E2B's kernel shows
the image among the cell's results instead. A viewer registered first with Pillow's own
`ImageShow` does the same here; importing it costs each kernel's start a few
milliseconds. The driver sends this source after formats.py and figures.py.
"""


def _sandpiper_pictures():
    from IPython.display import display
    from PIL import ImageShow

    class CellViewer(ImageShow.Viewer):
        # Pillow's show() converts an image PNG cannot hold (a float or CMYK one) first.
        format = "PNG"

        def show_image(self, image, **options):
            display(image)
            return 1

    ImageShow.register(CellViewer(), 0)


_sandpiper_pictures()
del _sandpiper_pictures
