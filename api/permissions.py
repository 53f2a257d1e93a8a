from rest_framework.permissions import SAFE_METHODS, BasePermission, IsAuthenticated

IMPORT_PERMISSION = "ingestion.add_importbatch"


class CanImport(BasePermission):
    """Uploading files needs the import permission; reading batches needs a login (the selector scopes them)."""

    message = "Uploading files needs the import permission (ingestion.add_importbatch)."

    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or request.user.has_perm(IMPORT_PERMISSION)


IMPORT_PERMISSIONS = [IsAuthenticated, CanImport]
