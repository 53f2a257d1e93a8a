FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
RUN DEBUG=1 python manage.py collectstatic --no-input
# The volumes' mount points, owned by the app's user: a new named volume takes the ownership of its mount point.
RUN useradd --system talentdb && mkdir -p /data/inbox /data/exports /run/searchindex \
    && chown talentdb /data/inbox /data/exports /run/searchindex
USER talentdb
EXPOSE 8000
# The web app (gunicorn.conf.py); docker-compose.yml runs the worker and beat from the same image.
CMD ["gunicorn", "-c", "gunicorn.conf.py"]
