"""The notebooks executed in a real Jupyter kernel: nbclient runs each topic notebook with its
own and with injected parameters (``notebook_runner.py``), and ``test_lab.py`` opens them in a
real JupyterLab driven by headless Chromium. Marker ``notebooks``."""
