"""Answers to questions over memory: where things are and were (``questions``, ``entities``), when
(``when``), habits and routines (``habits``), where things go (``placement``), what goes in a person's drink
(``drink``), and the per-request context that grounds names and asks back when unsure (``context``). Pure
Python; never imports rclpy."""
