from django.apps import AppConfig


class IngestionConfig(AppConfig):
    name = "ingestion"
    verbose_name = "Imports"

    def ready(self) -> None:
        from ingestion.erasure import source_files_erase
        from ingestion.privacy import ACCESS_WITHHELD_LABEL, import_batches_labelled_for, unlinked_source_files_naming
        from ingestion.texts import source_files_for_access
        from privacy.access_renderers import access_renderer_register
        from privacy.erasure import erasure_step_register

        # An erasure empties the stored files about the person (privacy may not import ingestion: it calls this); the
        # access request shows the files linked to no candidate that it would empty (their own are its relation) and
        # the batches of their files, whose labels it withholds: the access report withholds them too, as a label
        # may name the people of the batch's other files.
        erasure_step_register(
            "source_files",
            source_files_erase,
            held={
                "source_files_not_linked": unlinked_source_files_naming,
                "import_batches_of_their_files": import_batches_labelled_for,
            },
            redacted={"import_batches_of_their_files": {"label": ACCESS_WITHHELD_LABEL}},
        )
        # The access report shows a stored PDF's or DOCX's text beside its bytes (which are no text to read).
        for section in ("source_files", "source_files_not_linked"):
            access_renderer_register(section, source_files_for_access)
