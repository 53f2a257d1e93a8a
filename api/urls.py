from django.urls import path

from api import exports, imports, privacy, repositories, root, skills
from api.candidates import views as candidates
from api.jobs import description_ranking, pipeline, stored_jobs, stored_ranking

app_name = "api"
urlpatterns = [
    path("", root.ApiRootView.as_view(), name="root"),
    path("candidates/", candidates.CandidateListView.as_view(), name="candidate-list"),
    path("candidates/export.csv", exports.CandidateExportCSVView.as_view(), name="candidate-export-csv"),
    path("candidates/export.jsonl", exports.CandidateExportJSONLView.as_view(), name="candidate-export-jsonl"),
    path("candidates/<int:pk>/", candidates.CandidateDetailView.as_view(), name="candidate-detail"),
    path("candidates/<int:pk>/similar/", stored_ranking.CandidateSimilarView.as_view(), name="candidate-similar"),
    path("skills/", skills.SkillListView.as_view(), name="skill-list"),
    path("skills/<str:slug>/related/", skills.RelatedSkillsView.as_view(), name="skill-related"),
    path("repositories/", repositories.RepositoryListView.as_view(), name="repository-list"),
    path("jobs/match/", description_ranking.JobMatchView.as_view(), name="job-match"),
    path("jobs/", stored_jobs.JobListView.as_view(), name="job-list"),
    path("jobs/<int:pk>/", stored_jobs.JobDetailView.as_view(), name="job-detail"),
    path("jobs/<int:pk>/pipeline/", pipeline.JobPipelineView.as_view(), name="job-pipeline"),
    path("jobs/<int:pk>/matches/", stored_ranking.JobMatchesView.as_view(), name="job-matches"),
    path("imports/", imports.ImportListView.as_view(), name="import-list"),
    path("imports/<int:pk>/", imports.ImportDetailView.as_view(), name="import-detail"),
    path("exports/", exports.ExportListView.as_view(), name="export-list"),
    path("exports/<int:pk>/", exports.ExportDetailView.as_view(), name="export-detail"),
    path("exports/<int:pk>/download", exports.ExportDownloadView.as_view(), name="export-download"),
    path("privacy/notices/", privacy.NoticeListView.as_view(), name="privacy-notice-list"),
]
