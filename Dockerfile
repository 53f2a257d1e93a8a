FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
RUN DEBUG=1 python manage.py collectstatic --no-input
RUN useradd --system talentdb
USER talentdb
EXPOSE 8000
# The web app (gunicorn.conf.py); docker-compose.yml runs the worker and beat from the same image.
CMD ["gunicorn", "-c", "gunicorn.conf.py"]
