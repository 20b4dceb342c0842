"""Pictures of the games' public boards, drawn with Pillow."""
