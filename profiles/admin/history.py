"""The history pages (django-simple-history's list of versions and an old version's page) for readers who may not
see contact details: the list leaves out the changes of the contact columns (``profiles.contacts.CONTACT_COLUMNS``),
old and new value alike, and names no such change. An old version's page shows the admin's fieldsets for the reader,
which already leave the contact details out."""

from __future__ import annotations

import dataclasses

from simple_history.models import HistoricalChanges, ModelDelta
from simple_history.template_utils import HistoricalRecordContextHelper

from profiles.contacts import CONTACT_COLUMNS, may_see_contact_details


class ChangesWithoutContactDetails(HistoricalRecordContextHelper):
    """The changes of a version, as the history list shows them, without those of a contact column."""

    def context_for_delta_changes(self, delta: ModelDelta) -> list[dict]:
        changes = [change for change in delta.changes if change.field not in CONTACT_COLUMNS]
        fields = [name for name in delta.changed_fields if name not in CONTACT_COLUMNS]
        return super().context_for_delta_changes(dataclasses.replace(delta, changes=changes, changed_fields=fields))


class HistoryWithoutContactDetails:
    """A mixin for a ``SimpleHistoryAdmin`` of a model with contact columns."""

    def get_historical_record_context_helper(self, request, historical_record: HistoricalChanges):
        if may_see_contact_details(request.user):
            return super().get_historical_record_context_helper(request, historical_record)
        return ChangesWithoutContactDetails(self.model, historical_record)
