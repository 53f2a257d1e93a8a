from django.apps import AppConfig


class ExportsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "exports"
    verbose_name = "Exports"

    def ready(self) -> None:
        from exports.privacy import exports_erase, exports_naming
        from privacy.erasure import erasure_step_register

        # An erasure deletes the export files that may hold the person (privacy may not import exports); the access
        # request shows the exports that searched for them, whose query it empties.
        erasure_step_register("export_files", exports_erase, held={"exports_searching_for_them": exports_naming})
