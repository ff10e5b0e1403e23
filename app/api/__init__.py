"""HTTP layer: the documented blueprints, registered in this order by create_app() through the
Api; plain ones (docs, contexts) are registered beside them in app.factory."""

from app.api import common_content, health, lists, resources, web_response

BLUEPRINTS = [health.blp, web_response.blp, common_content.blp, resources.blp, lists.blp]
