"""elo-explain: rating systems, exactly as FIDE, Gammon42, FIBS and Glicko compute them.

One module per rating system; import the one you need::

    from elo_explain import elo, fide, gammon42, tables, glicko, fibs, simulate, calibration

Every public function validates its input and raises ``ValueError`` (or
``TypeError``) naming the parameter and the allowed values.
"""

__version__ = "0.1.0"
