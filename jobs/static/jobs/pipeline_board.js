// The pipeline board (templates/admin/jobs/job/pipeline_board.html): a card moves to another stage by drag and drop,
// or by keyboard with Alt+Left / Alt+Right on the focused card. Both fill in the card's own "move to" form and post
// it, so that the move view decides (its CSRF check, its permission, the recorded event) exactly as for a click.
(function () {
  "use strict";

  function move(card, stage) {
    const form = card.querySelector("form.move-to");
    if (!form || !stage || stage === card.dataset.stage) {
      return;
    }
    form.querySelector("select[name=stage]").value = stage;
    form.submit();
  }

  function stageOf(column) {
    return column.id.replace(/^stage-/, "");
  }

  function start() {
    const board = document.getElementById("pipeline-board");
    if (!board) {
      return;
    }
    const columns = Array.from(board.querySelectorAll(".board-column"));

    board.addEventListener("dragstart", function (event) {
      const card = event.target.closest && event.target.closest(".card[draggable=true]");
      if (!card) {
        return;
      }
      event.dataTransfer.setData("text/plain", card.dataset.entry);
      event.dataTransfer.effectAllowed = "move";
      card.classList.add("dragging");
    });
    board.addEventListener("dragend", function (event) {
      const card = event.target.closest && event.target.closest(".card");
      if (card) {
        card.classList.remove("dragging");
      }
    });
    columns.forEach(function (column) {
      column.addEventListener("dragover", function (event) {
        event.preventDefault();
        column.classList.add("drop-target");
      });
      column.addEventListener("dragleave", function () {
        column.classList.remove("drop-target");
      });
      column.addEventListener("drop", function (event) {
        event.preventDefault();
        column.classList.remove("drop-target");
        const entry = event.dataTransfer.getData("text/plain");
        const card = Array.from(board.querySelectorAll(".card[data-entry]")).find(function (c) {
          return c.dataset.entry === entry;
        });
        if (card) {
          move(card, stageOf(column));
        }
      });
    });

    board.addEventListener("keydown", function (event) {
      const card = event.target;
      if (!event.altKey || !card.matches || !card.matches(".card[draggable=true]")) {
        return;
      }
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) {
        return;
      }
      const index = columns.indexOf(card.closest(".board-column")) + step;
      if (index >= 0 && index < columns.length) {
        event.preventDefault();
        move(card, stageOf(columns[index]));
      }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
