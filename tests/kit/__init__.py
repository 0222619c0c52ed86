"""Tests of :mod:`tablekit`, through a toy game built on it (:mod:`kit.toy`)."""
