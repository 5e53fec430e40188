"""Executing memory's plans on a robot: the plan executor and its backends (no ROS here).

``executor.PlanExecutor`` runs a plan's steps in order through one ``backend.Backend`` (Genesis, a Dexmate
Vega through ``dexcontrol``, a Unitree G1 through ``unitree_sdk2py``), with a timeout per step, stops at the
first failure, honours cancel and the e-stop, and reports every step it ran as skill feedback, so memory
learns what happened. The vendor SDKs are optional and imported only by their own backend module.
``memory_node/ros/plan_executor.py`` is the ROS node around it; docs/execution.md the capability table.
"""
