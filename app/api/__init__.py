"""HTTP layer: every blueprint, registered in this order by create_app()."""

from app.api import common_content, contexts, health, resources, web_response

BLUEPRINTS = [health.blp, web_response.blp, common_content.blp, resources.blp, contexts.blp]
