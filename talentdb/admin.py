"""The login lockout's admin: django-axes' own, registered here (``AXES_ENABLE_ADMIN`` is off) so that its one action
works.

Axes' "Clean up expired attempts" reads ``request.axes_attempt_time``, which axes sets only on the request that logs
in: clicked in the admin, it raised AttributeError. Without that attribute the handler measures expiry from now,
which is what an operator cleaning up means.
"""

from axes.admin import AccessAttemptAdmin as AxesAccessAttemptAdmin
from axes.admin import AccessFailureLogAdmin, AccessLogAdmin
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib import admin


@admin.register(AccessAttempt)
class AccessAttemptAdmin(AxesAccessAttemptAdmin):
    @admin.action(description="Clean up expired attempts")
    def cleanup_expired_attempts(self, request, queryset):
        if not hasattr(request, "axes_attempt_time"):
            request.axes_attempt_time = None
        return super().cleanup_expired_attempts(request, queryset)


admin.site.register(AccessLog, AccessLogAdmin)
admin.site.register(AccessFailureLog, AccessFailureLogAdmin)
