"""Camera-side processing: images to stored frames (and, later, detections to scene-graph observations)."""
