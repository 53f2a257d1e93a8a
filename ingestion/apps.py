from django.apps import AppConfig


class IngestionConfig(AppConfig):
    name = "ingestion"
    verbose_name = "Imports"

    def ready(self) -> None:
        from ingestion.privacy import source_files_erase
        from privacy.erasure import erasure_step_register

        # An erasure empties the stored files about the person (privacy may not import ingestion: it calls this).
        erasure_step_register("source_files", source_files_erase)
