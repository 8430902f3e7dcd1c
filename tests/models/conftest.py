"""Each dashboard's model and view, without a kernel or a browser: the widgets exist as
Python objects (ipywidgets needs no front end to hold state), figures draw with Agg."""

import matplotlib

matplotlib.use("Agg")
