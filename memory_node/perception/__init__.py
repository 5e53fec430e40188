"""Camera-side processing, pure Python (no rclpy): images to stored frames (``frames``), maps
(``occupancy``), and RGB-D frames to scene-graph observations: detectors (``detection``,
``segmentation_detector``; learned ones in ``yolo_detector`` and ``sam_masks``) -> 3D lifting (``lifting``, open3d) -> colour names (``colors``) -> association
over time (``association``) -> relations from geometry (``relations``), composed by ``pipeline``."""
