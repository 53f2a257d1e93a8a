"""Deterministic generator of realistic, fictional developer profiles.

``generate_documents(count, seed=...)`` yields :class:`ProfileDocument` objects; ``render_progai`` writes one as a
Prog.AI text export (the layout of ``shared/corpus/progai/jinliang-wei.txt``, quirks included) and
``render_jsonresume`` as a JSON Resume (schema v1) file. ``write_profiles`` writes a mixed folder of both.

Everything comes from the word pools below and one ``random.Random(seed)``: no Faker, no clock, no ``hash()`` (string
hashing is salted per process), so the same seed gives the same bytes on every machine. The people are invented; the
pools mix names from many cultures, real cities and universities, and well-known and made-up companies.

Speed (the brief asks for 20,000 documents/s in pure Python): the hot loop draws names, places and careers one by
one, but deals skills, education, languages, badges and the shape of each contribution from tables pre-drawn at import
with fixed seeds (shuffled skill decks cut at a random place, pools of degree lists, ...). The spreads are the same as
drawing item by item; immutable entries (SkillEntry, EducationEntry, Location) are shared between documents.
"""

from __future__ import annotations

import dataclasses
import json
import os
import unicodedata
import zlib
from collections.abc import Collection, Iterator
from json.encoder import encode_basestring as _encode_string  # the C implementation where available
from operator import attrgetter
from pathlib import Path
from random import Random

from ingestion.documents import (
    ContributionEntry,
    EducationEntry,
    Identifiers,
    Location,
    ProfileDocument,
    SkillEntry,
)
from ingestion.parsers.jsonresume import LEVELS
from ingestion.parsers.progai import (
    ADVERTISEMENT,
    BADGES,
    CONTRIBUTION_SUMMARY_LABEL,
    CONTRIBUTIONS_HEADING,
    DEGREES,
    LANGUAGES_HEADING,
    PRESENT,
    ROLE_LABEL,
    SKILLS_HEADING,
    STATS_LABEL,
    SUMMARY_HEADING,
    YEARS_CODING_TEXT,
    YEARS_EMPLOYED_TEXT,
)

__all__ = [
    "BADGE_EMOJI",
    "SKILL_LABELS",
    "TOPIC_LABELS",
    "generate_documents",
    "render_jsonresume",
    "render_progai",
    "write_profiles",
]

# The month the synthetic world lives in: contribution dates end here ("Present"). Fixed, for determinism.
NOW_YEAR = 2025
NOW_MONTH = 6

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _split(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split("|") if part.strip())


def _known(vocabulary: Collection[str], picked: tuple[str, ...]) -> tuple[str, ...]:
    """``picked``, repeats kept (they weight the draws), once every name in it is checked to be in ``vocabulary``.

    The generator writes its own choice from vocabularies the parser owns (badges, degrees, skill levels): should the
    parser stop knowing one of the names, importing the generator fails instead of writing files the parser reads
    another way.
    """
    unknown = sorted({name for name in picked if name not in vocabulary})
    if unknown:
        raise ValueError(f"The parser does not know {', '.join(unknown)}.")
    return picked


# Badge -> the emoji line the export prints before it; the badges are the parser's (progai.BADGES).
BADGE_EMOJI: dict[str, str] = {
    "Rockstar": "🤩",
    "Top School": "🎓",
    "Top Company": "🏢",
    "Open Source Contributor": "🌟",
    "Hidden Gem": "💎",
    "Rising Star": "🚀",
    "Polyglot": "🌐",
}
_BADGES = _known(BADGES, tuple(BADGE_EMOJI))
_BADGE_WEIGHTS = (14, 12, 12, 10, 6, 5, 3)


# ---------------------------------------------------------------------------------------------------------------------
# People: names by culture, with the languages they tend to speak.
# ---------------------------------------------------------------------------------------------------------------------

# culture: (first names, last names, spoken languages besides English, weight, middle-initial share,
#           double-surname share)
_CULTURES: dict[str, tuple[str, str, str, int, float, float]] = {
    "anglo": (
        "James|Olivia|Liam|Emma|Noah|Ava|Ethan|Sophia|Mason|Isabella|Logan|Mia|Lucas|Charlotte|Jack|Amelia|Owen|"
        "Harper|Caleb|Abigail|Ryan|Emily|Nathan|Ella|Dylan|Grace|Connor|Chloe|Aiden|Hannah|Gavin|Lily|Tyler|Zoe|"
        "Michael|Sarah|David|Jessica|Daniel|Ashley|Matthew|Amanda|Andrew|Stephanie|Joshua|Jennifer|Kevin|Nicole|"
        "Justin|Heather|Patrick|Erin|Sean|Molly|Adam|Claire|Ian|Alice|Oliver|Isla|Harry|Freya|George|Poppy|"
        "Brandon|Natalie|Spencer|Megan|Colin|Rachel|Trevor|Lauren|Derek|Kayla|Miles|Brooke|Graham|Paige",
        "Smith|Johnson|Williams|Brown|Jones|Miller|Davis|Wilson|Anderson|Taylor|Thomas|Moore|Martin|Thompson|White|"
        "Harris|Clark|Lewis|Robinson|Walker|Young|Allen|King|Wright|Scott|Hill|Green|Adams|Baker|Nelson|Carter|"
        "Mitchell|Roberts|Turner|Phillips|Campbell|Parker|Evans|Edwards|Collins|Stewart|Morris|Murphy|Cook|Rogers|"
        "Reed|Bailey|Bell|Cooper|Howard|Ward|Brooks|Sanders|Price|Bennett|Wood|Barnes|Ross|Henderson|Coleman|Jenkins|"
        "Perry|Powell|Sullivan|Russell|Fisher|Hayes|Myers|Ford|Hamilton|Graham|Wallace|Fletcher|Holland|Lambert",
        "",
        16,
        0.45,
        0.0,
    ),
    "hispanic": (
        "José|María|Juan|Lucía|Carlos|Sofía|Luis|Valentina|Javier|Camila|Diego|Isabel|Miguel|Daniela|Alejandro|Paula|"
        "Andrés|Gabriela|Fernando|Mariana|Pablo|Carmen|Sergio|Elena|Ricardo|Natalia|Raúl|Adriana|Óscar|Ximena|Mateo|"
        "Renata|Santiago|Jimena|Emilio|Florencia|Tomás|Agustina|Rodrigo|Victoria|Héctor|Alba|Iván|Noelia",
        "García|Rodríguez|Martínez|López|González|Hernández|Pérez|Sánchez|Ramírez|Torres|Flores|Rivera|Gómez|Díaz|"
        "Reyes|Morales|Cruz|Ortiz|Gutiérrez|Chávez|Ramos|Ruiz|Álvarez|Mendoza|Castillo|Jiménez|Moreno|Romero|Herrera|"
        "Medina|Aguilar|Vargas|Castro|Guzmán|Fernández|Navarro|Domínguez|Vega|Salazar|Delgado|Peña|Ríos|Campos|"
        "Cabrera|Fuentes|Paredes|Ibarra|Serrano|Molina|Soto|Contreras|Acosta|Figueroa|Carrasco|Bravo|Zamora",
        "Spanish",
        11,
        0.1,
        0.45,
    ),
    "lusophone": (
        "João|Ana|Pedro|Beatriz|Lucas|Mariana|Gabriel|Larissa|Rafael|Juliana|Thiago|Fernanda|Gustavo|Camila|Bruno|"
        "Letícia|Felipe|Amanda|Matheus|Bianca|Leonardo|Carolina|Vinícius|Aline|Rodrigo|Vanessa|Caio|Renata|Diogo|Inês|"
        "Henrique|Patrícia|Eduardo|Tatiana|Murilo|Débora|Otávio|Priscila",
        "Silva|Santos|Oliveira|Souza|Pereira|Costa|Rodrigues|Almeida|Nascimento|Lima|Araújo|Fernandes|Carvalho|"
        "Gomes|Martins|Rocha|Ribeiro|Alves|Monteiro|Mendes|Barros|Freitas|Barbosa|Pinto|Moura|Cavalcanti|Dias|Castro|"
        "Campos|Cardoso|Teixeira|Correia|Nogueira|Moreira|Azevedo|Vieira|Lopes|Brandão|Figueiredo|Sampaio|Tavares",
        "Portuguese",
        6,
        0.1,
        0.4,
    ),
    "french": (
        "Louis|Camille|Hugo|Léa|Julien|Manon|Antoine|Chloé|Mathieu|Inès|Nicolas|Élodie|Théo|Juliette|Maxime|Pauline|"
        "Clément|Margaux|Guillaume|Anaïs|Baptiste|Océane|Romain|Céline|Quentin|Amélie|Benoît|Sandrine|Aurélien|Laure|"
        "Étienne|Noémie|Olivier|Mathilde",
        "Martin|Bernard|Dubois|Thomas|Robert|Richard|Petit|Durand|Leroy|Moreau|Simon|Laurent|Lefebvre|Michel|"
        "Lefèvre|Fournier|Girard|Bonnet|Dupont|Lambert|Fontaine|Rousseau|Vincent|Muller|Faure|André|Mercier|Blanc|"
        "Guérin|Boyer|Garnier|Chevalier|Francois|Legrand|Gauthier|Perrin|Morel|Roussel|Marchand|Duval|Lemoine",
        "French",
        5,
        0.1,
        0.0,
    ),
    "german": (
        "Lukas|Anna|Felix|Lena|Jonas|Laura|Maximilian|Julia|Leon|Sarah|Paul|Lea|Niklas|Johanna|Tim|Katharina|Jan|"
        "Franziska|Moritz|Hannah|Florian|Marie|Tobias|Sabine|Stefan|Miriam|Matthias|Carina|Sebastian|Jana|Philipp|Nina|"
        "Dominik|Vanessa|Jörg|Ute|Henrik|Greta|Fabian|Annika|Andreas|Claudia|Christian|Melanie|Markus|Stefanie|"
        "Thomas|Simone|Alexander|Lisa|Benedikt|Theresa|Kai|Svenja|Johannes|Leonie|Marcel|Nadine|Sven|Elias|Jannik",
        "Müller|Schmidt|Schneider|Fischer|Weber|Meyer|Wagner|Becker|Schulz|Hoffmann|Schäfer|Koch|Bauer|Richter|Klein|"
        "Wolf|Schröder|Neumann|Schwarz|Zimmermann|Braun|Krüger|Hofmann|Hartmann|Lange|Schmitt|Werner|Krause|Meier|"
        "Lehmann|Köhler|Herrmann|König|Walter|Mayer|Huber|Kaiser|Fuchs|Peters|Lang|Scholz|Möller|Weiß|Jung|Hahn|"
        "Vogel|Friedrich|Keller|Günther|Frank|Berger|Winkler|Roth|Beck|Lorenz|Baumann|Franke|Albrecht|Ludwig",
        "German",
        8,
        0.15,
        0.0,
    ),
    "italian": (
        "Marco|Giulia|Alessandro|Francesca|Luca|Chiara|Matteo|Sara|Lorenzo|Martina|Davide|Elisa|Simone|Valentina|"
        "Andrea|Federica|Stefano|Silvia|Riccardo|Alessia|Giovanni|Ilaria|Fabio|Serena|Emanuele|Roberta|Gabriele|"
        "Beatrice|Nicolò|Camilla|Tommaso|Arianna",
        "Rossi|Russo|Ferrari|Esposito|Bianchi|Romano|Colombo|Ricci|Marino|Greco|Bruno|Gallo|Conti|De Luca|Mancini|"
        "Costa|Giordano|Rizzo|Lombardi|Moretti|Barbieri|Fontana|Santoro|Mariani|Rinaldi|Caruso|Ferrara|Galli|Martini|"
        "Leone|Longo|Gentile|Martinelli|Vitale|Lombardo|Serra|Coppola|De Santis|D'Angelo|Marchetti|Parisi|Villa",
        "Italian",
        4,
        0.1,
        0.0,
    ),
    "dutch_nordic": (
        "Daan|Sanne|Sem|Fleur|Bram|Lotte|Thijs|Eva|Ruben|Iris|Lars|Ingrid|Erik|Astrid|Mikael|Sigrid|Oskar|Freya|Nils|"
        "Maja|Henrik|Elin|Søren|Karin|Magnus|Linnea|Anders|Hanna|Jesper|Saga|Jukka|Aino|Mikko|Helmi|Pekka|Sofie",
        "de Jong|Jansen|de Vries|van den Berg|van Dijk|Bakker|Visser|Smit|Meijer|de Boer|Mulder|Bos|Vos|Peters|"
        "Hendriks|van Leeuwen|Dekker|Brouwer|Johansson|Andersson|Karlsson|Nilsson|Eriksson|Larsson|Olsson|Persson|"
        "Svensson|Lindqvist|Hansen|Nielsen|Jensen|Pedersen|Kristiansen|Haugen|Berg|Dahl|Virtanen|Korhonen|Mäkinen|"
        "Nieminen|Hämäläinen|Laine|Heikkinen|Lindström|Holm|Sørensen|Bergström",
        "Dutch|Swedish|Norwegian|Danish|Finnish",
        5,
        0.15,
        0.0,
    ),
    "slavic": (
        "Jakub|Zuzana|Tomasz|Agnieszka|Piotr|Katarzyna|Michał|Magdalena|Łukasz|Joanna|Paweł|Aleksandra|Krzysztof|"
        "Monika|Marek|Ewa|Ondřej|Tereza|Petr|Lucie|Dmytro|Olena|Andriy|Iryna|Oleksandr|Natalia|Ivan|Svetlana|Mikhail|"
        "Ekaterina|Sergey|Anastasia|Nikola|Milica|Stefan|Jelena|Dragan|Ana|Bogdan|Ioana|Radu|Elena|Wojciech|Karolina|"
        "Maciej|Natalia|Bartosz|Dominika|Grzegorz|Justyna|Jiří|Kateřina|Martin|Veronika|Taras|Oksana|Yaroslav|"
        "Kateryna|Volodymyr|Yulia|Alexei|Daria|Dmitri|Polina|Marko|Ivana|Luka|Jovana|Andrei|Cristina|Mihai|Alina",
        "Nowak|Kowalski|Wiśniewski|Wójcik|Kowalczyk|Kamiński|Lewandowski|Zieliński|Szymański|Woźniak|Dąbrowski|"
        "Kozłowski|Mazur|Krawczyk|Novák|Svoboda|Dvořák|Černý|Procházka|Kučera|Shevchenko|Kovalenko|Bondarenko|"
        "Tkachenko|Kravchenko|Oliynyk|Melnyk|Ivanov|Petrov|Smirnov|Sokolov|Popov|Volkov|Morozov|Kuznetsov|Jovanović|"
        "Petrović|Nikolić|Marković|Đorđević|Popescu|Ionescu|Dumitrescu|Stoica|Horvat|Kovačević|Babić|Novaković|"
        "Jankowski|Pawlak|Michalski|Król|Wieczorek|Jabłoński|Majewski|Olszewski|Nowakowski|Veselý|Horák|Němec|"
        "Marek|Pokorný|Hrytsenko|Savchenko|Rudenko|Marchenko|Lysenko|Boyko|Fedorov|Lebedev|Novikov|Pavlov|"
        "Stanković|Ilić|Radu|Constantin|Georgescu|Matei|Kolar|Zorić",
        "Polish|Czech|Ukrainian|Russian|Serbian|Romanian",
        9,
        0.06,
        0.0,
    ),
    "greek_turkish": (
        "Georgios|Maria|Dimitrios|Eleni|Nikolaos|Katerina|Konstantinos|Sofia|Ioannis|Despina|Alexandros|Vasiliki|"
        "Mehmet|Ayşe|Mustafa|Zeynep|Emre|Elif|Burak|Merve|Can|Selin|Oğuz|Ebru|Kerem|Deniz|Serkan|Gizem|Onur|Büşra",
        "Papadopoulos|Papadakis|Georgiou|Nikolaidis|Karagiannis|Vlachos|Oikonomou|Dimitriou|Konstantinou|"
        "Alexiou|Christodoulou|Makris|Yılmaz|Kaya|Demir|Şahin|Çelik|Yıldız|Yıldırım|Öztürk|Aydın|Özdemir|Arslan|"
        "Doğan|Kılıç|Aslan|Çetin|Kara|Koç|Kurt|Özkan|Şimşek|Polat|Erdoğan|Aksoy|Güneş",
        "Greek|Turkish",
        4,
        0.04,
        0.0,
    ),
    "arabic_persian": (
        "Mohammed|Fatima|Ahmed|Aisha|Omar|Layla|Youssef|Nour|Khaled|Mariam|Hassan|Salma|Ali|Zainab|Karim|Hana|Tariq|"
        "Rania|Samir|Yasmin|Reza|Shirin|Dariush|Parisa|Amir|Nasrin|Kian|Leila|Farhad|Roya|Hamza|Dina",
        "Al-Sayed|Haddad|Khalil|Mansour|Nasser|Hamdan|Saleh|Aziz|Rahman|Farouk|Ibrahim|Abdullah|Hussein|Mahmoud|"
        "El-Amin|Bakr|Darwish|Suleiman|Qureshi|Osman|Hosseini|Mohammadi|Rezaei|Ahmadi|Karimi|Moradi|Jafari|Tehrani|"
        "Rostami|Sadeghi|Najafi|Farahani|Benali|Bouzid|Cherif|Amrani",
        "Arabic|Persian|French",
        6,
        0.1,
        0.0,
    ),
    "hebrew": (
        "Noam|Tamar|Yosef|Noa|Eitan|Shira|Ariel|Maya|Itai|Yael|Omer|Michal|Amit|Roni|Gal|Dana|Ido|Hila",
        "Cohen|Levi|Mizrahi|Peretz|Biton|Dahan|Avraham|Friedman|Katz|Azoulay|Ben-David|Shapiro|Goldberg|Rosen|"
        "Ohana|Segal|Amar|Weiss|Gabay|Ashkenazi",
        "Hebrew",
        2,
        0.15,
        0.0,
    ),
    "south_asian": (
        "Aarav|Priya|Rahul|Ananya|Vikram|Sneha|Arjun|Divya|Rohan|Pooja|Aditya|Kavya|Karthik|Lakshmi|Sanjay|Meera|"
        "Nikhil|Shreya|Suresh|Deepika|Rajesh|Anjali|Varun|Nisha|Siddharth|Ishita|Abhishek|Swati|Manish|Neha|Pranav|"
        "Aishwarya|Harsha|Bhavana|Venkat|Sowmya|Imran|Ayesha|Bilal|Sana|Farhan|Nusrat|Tanvir|Rumana|Kasun|Dilini|"
        "Akash|Ankit|Amit|Ajay|Arun|Ashwin|Gaurav|Hemant|Kunal|Mohit|Naveen|Prakash|Ramesh|Sachin|Saurabh|Tarun|"
        "Vivek|Yash|Aditi|Anusha|Chitra|Gayatri|Harini|Jyoti|Kavitha|Madhuri|Nandini|Pallavi|Radhika|Ritu|Shalini|"
        "Shweta|Tanvi|Vidya|Zoya|Raghav|Dhruv|Ishaan|Kabir|Vihaan|Riya|Saanvi|Tara|Uma|Deepak|Girish|Srinivas",
        "Sharma|Patel|Singh|Kumar|Gupta|Reddy|Iyer|Nair|Rao|Mehta|Joshi|Chowdhury|Das|Banerjee|Mukherjee|Verma|"
        "Jain|Thakur|Yadav|Chauhan|Tiwari|Dubey|Sinha|Bhattacharya|Roy|Kamath|Shetty|Prabhu|Varma|Chopra|Arora|"
        "Bhatt|Trivedi|Parikh|Mathur|Goyal|Bansal|Mittal|Garg|Raghavan|Natarajan|Sundaram|Gopal|Mohan|Prasad|"
        "Agarwal|Pillai|Menon|Krishnan|Subramanian|Venkatesan|Naidu|Desai|Shah|Kulkarni|Bhat|Malhotra|Kapoor|Saxena|"
        "Mishra|Pandey|Srinivasan|Ramachandran|Ghosh|Bose|Sen|Dutta|Chatterjee|Hegde|Kaur|Gill|Sandhu|Khan|Hussain|"
        "Ahmed|Siddiqui|Rahman|Islam|Hossain|Perera|Fernando|Jayasinghe|Wickramasinghe",
        "Hindi|Tamil|Telugu|Bengali|Marathi|Kannada|Urdu|Malayalam",
        14,
        0.3,
        0.0,
    ),
    "chinese": (
        "Wei|Jing|Hao|Li|Jun|Xin|Yang|Mei|Lei|Yan|Jian|Ying|Tao|Hui|Bo|Lin|Chen|Qing|Feng|Xiaoyu|Zhiwei|Yuxuan|"
        "Haoran|Zihan|Jiahui|Xinyi|Yifan|Ruoxi|Mingze|Shuang|Zhen|Kai|Rui|Ning|Peng|Jie|Cheng|Yue|Liang|Wen|"
        "Shu-Fen|Chia-Hao|Yu-Ting|Kuan-Yu|Wing|Ka-Ming",
        "Wang|Li|Zhang|Liu|Chen|Yang|Huang|Zhao|Wu|Zhou|Xu|Sun|Ma|Zhu|Hu|Guo|He|Gao|Lin|Luo|Zheng|Liang|Xie|Song|"
        "Tang|Han|Feng|Deng|Cao|Peng|Zeng|Xiao|Tian|Dong|Pan|Yuan|Cai|Jiang|Yu|Du|Ye|Cheng|Wei|Su|Lü|Ding|Ren|Shen|"
        "Yao|Lu|Fu|Zhong|Jiang|Cui|Tan|Lu|Fan|Jin|Shi|Liao|Wong|Chan|Cheung|Lau|Ng|Tsai|Hsu|Chang",
        "Chinese|Mandarin|Cantonese",
        13,
        0.0,
        0.0,
    ),
    "japanese": (
        "Haruto|Yui|Sota|Hina|Ren|Aoi|Yuto|Sakura|Kenji|Yuki|Takumi|Mei|Daiki|Naoko|Shota|Ayaka|Hiroshi|Emi|Kaito|"
        "Riko|Sho|Mio|Kenta|Misaki|Ryo|Nanami|Takeshi|Asuka",
        "Sato|Suzuki|Takahashi|Tanaka|Watanabe|Ito|Yamamoto|Nakamura|Kobayashi|Kato|Yoshida|Yamada|Sasaki|"
        "Yamaguchi|Matsumoto|Inoue|Kimura|Hayashi|Shimizu|Mori|Ikeda|Hashimoto|Ishikawa|Ogawa|Fujita|Okada|Abe|"
        "Maeda|Fujii|Goto|Okamoto|Murakami|Endo|Aoki|Sakamoto|Nishimura|Fukuda|Ota|Miura|Takeuchi|Nakano|Harada|"
        "Matsuda|Ueda|Morita|Hara|Shibata|Kudo|Sakai|Noguchi",
        "Japanese",
        5,
        0.0,
        0.0,
    ),
    "korean": (
        "Ji-ho|Seo-yeon|Min-jun|Ji-woo|Do-yoon|Ha-eun|Seung-hyun|Su-bin|Jae-won|Hye-jin|Hyun-woo|Yeon-woo|Tae-yang|"
        "Eun-ji|Minsu|Jiyoung|Sungmin|Hyejin",
        "Kim|Lee|Park|Choi|Jung|Kang|Cho|Yoon|Jang|Lim|Han|Oh|Seo|Shin|Kwon|Hwang|Ahn|Song|Ryu|Hong|Jeon|Moon|Ko|"
        "Yang|Son|Bae|Baek|Heo|Nam|Noh|Ha|Kwak|Sung|Cha|Joo|Woo|Min|Yoo|Jin|Na",
        "Korean",
        4,
        0.0,
        0.0,
    ),
    "southeast_asian": (
        "Minh|Linh|Anh|Thu|Duc|Huong|Quang|Trang|Tuan|Ngoc|Bao|Mai|Somchai|Nattaya|Arif|Siti|Budi|Dewi|Rizky|Putri|"
        "Jose Miguel|Maricel|Paolo|Kristine|Rafael|Angelica|Aiman|Nurul|Hafiz|Farah",
        "Nguyễn|Trần|Lê|Phạm|Hoàng|Huỳnh|Phan|Vũ|Võ|Đặng|Bùi|Đỗ|Hồ|Ngô|Dương|Lý|Santoso|Wijaya|Pratama|Hidayat|"
        "Saputra|Kusuma|Setiawan|Gunawan|Reyes|Santos|Dela Cruz|Bautista|Villanueva|Mendoza|Aquino|Garcia|"
        "Srisuk|Chaiyaporn|Wongsawat|Rattanakorn|Abdullah|Ismail|Rahim|Hashim",
        "Vietnamese|Thai|Indonesian|Filipino|Malay",
        7,
        0.02,
        0.0,
    ),
    "african": (
        "Chinedu|Ngozi|Oluwaseun|Adaeze|Emeka|Funmilayo|Tunde|Chiamaka|Ifeanyi|Yetunde|Kwame|Ama|Kofi|Efua|Yaw|Abena|"
        "Wanjiru|Otieno|Achieng|Kamau|Njeri|Baraka|Amani|Zawadi|Thabo|Lerato|Sipho|Nomvula|Tendai|Rutendo|Abebe|"
        "Selam|Dawit|Hirut|Moussa|Aminata|Ousmane|Fatou|Ikechukwu|Folake",
        "Okafor|Adeyemi|Okonkwo|Balogun|Eze|Nwosu|Adebayo|Ogunleye|Chukwu|Obi|Afolabi|Olawale|Mensah|Owusu|Boateng|"
        "Asante|Appiah|Osei|Kariuki|Mwangi|Ochieng|Njoroge|Wambui|Kiprop|Dlamini|Nkosi|Ndlovu|Khumalo|Mokoena|"
        "Moyo|Banda|Phiri|Tesfaye|Bekele|Haile|Girma|Diallo|Traoré|Keita|Ndiaye|Sow|Kamara",
        "Yoruba|Igbo|Hausa|Swahili|Amharic|Zulu|French",
        7,
        0.2,
        0.0,
    ),
}

# Given names built from syllables, as these cultures build them (Zhiwei, Seo-jun, Kenta).
_ZH = _split(
    "Zhi|Wei|Yu|Xuan|Hao|Ran|Jia|Hui|Xin|Yi|Ming|Ze|Rui|Jun|Kai|Lin|Yan|Ting|Shu|Qi|Chen|Bo|Wen|Jie|Hong|Li|Jing|"
    "Fang|Lei|Peng|Tao|Yong|Hua|Xiao|Dong|Feng|Qing|Ying|Mei|Lan|Yun|Zhen|Han|Ning|Cheng|Le|Xi|Tian|Zi|Si"
)
_KO_A = _split("Ji|Min|Seo|Ha|Do|Su|Jae|Hye|Hyun|Yeon|Tae|Eun|Seung|Joon|Woo|Sung|Young|Dong|Kyung|Sang|Ye|Na")
_KO_B = _split("ho|jun|yeon|woo|eun|bin|won|jin|ah|hee|min|seok|hoon|yun|rin|kyu|hwan|young|soo|ji")
_JA_A = _split("Haru|Yu|Ken|Sho|Dai|Taku|Ryo|Hiro|Kazu|Masa|Nao|Aki|Yoshi|Tomo|Shin|Kei|Yasu|Tatsu|Mitsu|Sato")
_JA_B = _split("to|ki|ya|ta|suke|hiko|ko|mi|ka|na|ri|ho|nori|shi")
_GENERATED_GIVEN = {
    "chinese": tuple(a + b.lower() for a in _ZH for b in _ZH if a != b),
    "korean": tuple(f"{a}-{b}" for a in _KO_A for b in _KO_B),
    "japanese": tuple(a + b for a in _JA_A for b in _JA_B),
}
# Share of people with two given names (José Luis, João Pedro, Tuan Anh), by culture; 6 % elsewhere.
_SECOND_GIVEN = {
    "hispanic": 0.25,
    "lusophone": 0.3,
    "southeast_asian": 0.4,
    "french": 0.15,
    "german": 0.08,
    "arabic_persian": 0.3,
    "african": 0.15,
    "hebrew": 0.1,
    "greek_turkish": 0.12,
    "italian": 0.08,
}

_CULTURE_DATA = tuple(
    (
        tuple(dict.fromkeys(_split(first) + _GENERATED_GIVEN.get(key, ()))),
        tuple(dict.fromkeys(_split(last))),
        _split(langs),
        mid,
        double,
        _SECOND_GIVEN.get(key, 0.06),
    )
    for key, (first, last, langs, _, mid, double) in _CULTURES.items()
)
_CULTURE_WEIGHTS = tuple(v[3] for v in _CULTURES.values())
_ALL_FIRST = tuple(dict.fromkeys(n for data in _CULTURE_DATA for n in data[0]))
_ALL_LAST = tuple(dict.fromkeys(n for data in _CULTURE_DATA for n in data[1]))
_N_ALL_LAST = len(_ALL_LAST)
_N_ALL_FIRST = len(_ALL_FIRST)
_INITIALS = "ABCDEFGHJKLMNOPRSTVW"

_FLUENCY = ("Native speaker", "Full professional proficiency", "Professional working proficiency", "Fluent",
            "Limited working proficiency", "Elementary proficiency")  # fmt: skip
_EXTRA_LANGUAGES = _split("Spanish|French|German|Japanese|Portuguese|Italian|Russian|Korean|Chinese|Dutch|Arabic")

# ---------------------------------------------------------------------------------------------------------------------
# Places: city, region, country (as pycountry names it, never with a comma), ISO 3166-1 alpha-2, weight.
# ---------------------------------------------------------------------------------------------------------------------

_CITIES_TEXT = """
San Francisco;California;United States;US;9
Mountain View;California;United States;US;4
San Jose;California;United States;US;4
Sunnyvale;California;United States;US;3
Palo Alto;California;United States;US;3
Los Angeles;California;United States;US;5
San Diego;California;United States;US;3
Seattle;Washington;United States;US;7
Redmond;Washington;United States;US;3
Bellevue;Washington;United States;US;2
Portland;Oregon;United States;US;3
New York;New York;United States;US;9
Brooklyn;New York;United States;US;3
Boston;Massachusetts;United States;US;5
Cambridge;Massachusetts;United States;US;2
Austin;Texas;United States;US;5
Dallas;Texas;United States;US;3
Houston;Texas;United States;US;2
Chicago;Illinois;United States;US;4
Denver;Colorado;United States;US;3
Boulder;Colorado;United States;US;1
Atlanta;Georgia;United States;US;3
Raleigh;North Carolina;United States;US;2
Pittsburgh;Pennsylvania;United States;US;2
Philadelphia;Pennsylvania;United States;US;2
Washington;District of Columbia;United States;US;2
Miami;Florida;United States;US;2
Minneapolis;Minnesota;United States;US;2
Salt Lake City;Utah;United States;US;1
Madison;Wisconsin;United States;US;1
Ann Arbor;Michigan;United States;US;1
Toronto;Ontario;Canada;CA;6
Waterloo;Ontario;Canada;CA;2
Ottawa;Ontario;Canada;CA;1
Vancouver;British Columbia;Canada;CA;4
Montreal;Quebec;Canada;CA;3
Calgary;Alberta;Canada;CA;1
Mexico City;Mexico City;Mexico;MX;3
Guadalajara;Jalisco;Mexico;MX;2
Monterrey;Nuevo León;Mexico;MX;1
São Paulo;São Paulo;Brazil;BR;6
Rio de Janeiro;Rio de Janeiro;Brazil;BR;2
Belo Horizonte;Minas Gerais;Brazil;BR;2
Florianópolis;Santa Catarina;Brazil;BR;1
Porto Alegre;Rio Grande do Sul;Brazil;BR;1
Recife;Pernambuco;Brazil;BR;1
Buenos Aires;Buenos Aires;Argentina;AR;3
Córdoba;Córdoba;Argentina;AR;1
Santiago;Santiago Metropolitan;Chile;CL;2
Bogotá;Bogotá;Colombia;CO;2
Medellín;Antioquia;Colombia;CO;2
Lima;Lima;Peru;PE;1
Montevideo;Montevideo;Uruguay;UY;1
London;England;United Kingdom;GB;8
Manchester;England;United Kingdom;GB;2
Cambridge;England;United Kingdom;GB;1
Bristol;England;United Kingdom;GB;1
Edinburgh;Scotland;United Kingdom;GB;2
Belfast;Northern Ireland;United Kingdom;GB;1
Dublin;County Dublin;Ireland;IE;3
Cork;County Cork;Ireland;IE;1
Paris;Île-de-France;France;FR;5
Lyon;Auvergne-Rhône-Alpes;France;FR;2
Toulouse;Occitanie;France;FR;1
Nantes;Pays de la Loire;France;FR;1
Berlin;Berlin;Germany;DE;6
Munich;Bavaria;Germany;DE;4
Hamburg;Hamburg;Germany;DE;2
Frankfurt;Hesse;Germany;DE;2
Cologne;North Rhine-Westphalia;Germany;DE;1
Stuttgart;Baden-Württemberg;Germany;DE;1
Karlsruhe;Baden-Württemberg;Germany;DE;1
Amsterdam;North Holland;Netherlands;NL;4
Rotterdam;South Holland;Netherlands;NL;1
Eindhoven;North Brabant;Netherlands;NL;1
Utrecht;Utrecht;Netherlands;NL;1
Brussels;Brussels;Belgium;BE;1
Ghent;East Flanders;Belgium;BE;1
Zurich;Zurich;Switzerland;CH;3
Geneva;Geneva;Switzerland;CH;1
Lausanne;Vaud;Switzerland;CH;1
Vienna;Vienna;Austria;AT;2
Madrid;Community of Madrid;Spain;ES;3
Barcelona;Catalonia;Spain;ES;3
Valencia;Valencian Community;Spain;ES;1
Lisbon;Lisbon;Portugal;PT;2
Porto;Porto;Portugal;PT;1
Milan;Lombardy;Italy;IT;2
Rome;Lazio;Italy;IT;1
Turin;Piedmont;Italy;IT;1
Bologna;Emilia-Romagna;Italy;IT;1
Stockholm;Stockholm County;Sweden;SE;3
Gothenburg;Västra Götaland;Sweden;SE;1
Oslo;Oslo;Norway;NO;2
Copenhagen;Capital Region;Denmark;DK;2
Aarhus;Central Denmark;Denmark;DK;1
Helsinki;Uusimaa;Finland;FI;2
Tampere;Pirkanmaa;Finland;FI;1
Tallinn;Harju County;Estonia;EE;1
Riga;Riga;Latvia;LV;1
Vilnius;Vilnius County;Lithuania;LT;1
Warsaw;Masovian Voivodeship;Poland;PL;3
Kraków;Lesser Poland Voivodeship;Poland;PL;2
Wrocław;Lower Silesian Voivodeship;Poland;PL;1
Gdańsk;Pomeranian Voivodeship;Poland;PL;1
Prague;Prague;Czechia;CZ;2
Brno;South Moravian Region;Czechia;CZ;1
Bratislava;Bratislava Region;Slovakia;SK;1
Budapest;Budapest;Hungary;HU;1
Bucharest;Bucharest;Romania;RO;2
Cluj-Napoca;Cluj County;Romania;RO;1
Sofia;Sofia City Province;Bulgaria;BG;1
Belgrade;Belgrade;Serbia;RS;1
Novi Sad;Vojvodina;Serbia;RS;1
Zagreb;City of Zagreb;Croatia;HR;1
Ljubljana;Ljubljana;Slovenia;SI;1
Kyiv;Kyiv City;Ukraine;UA;2
Lviv;Lviv Oblast;Ukraine;UA;1
Kharkiv;Kharkiv Oblast;Ukraine;UA;1
Athens;Attica;Greece;GR;1
Thessaloniki;Central Macedonia;Greece;GR;1
Istanbul;Istanbul;Türkiye;TR;2
Ankara;Ankara;Türkiye;TR;1
Tel Aviv;Tel Aviv District;Israel;IL;2
Haifa;Haifa District;Israel;IL;1
Dubai;Dubai;United Arab Emirates;AE;1
Riyadh;Riyadh Province;Saudi Arabia;SA;1
Cairo;Cairo Governorate;Egypt;EG;2
Alexandria;Alexandria Governorate;Egypt;EG;1
Casablanca;Casablanca-Settat;Morocco;MA;1
Tunis;Tunis Governorate;Tunisia;TN;1
Lagos;Lagos State;Nigeria;NG;3
Abuja;Federal Capital Territory;Nigeria;NG;1
Accra;Greater Accra;Ghana;GH;1
Nairobi;Nairobi County;Kenya;KE;2
Kigali;Kigali City;Rwanda;RW;1
Addis Ababa;Addis Ababa;Ethiopia;ET;1
Cape Town;Western Cape;South Africa;ZA;2
Johannesburg;Gauteng;South Africa;ZA;2
Bengaluru;Karnataka;India;IN;9
Hyderabad;Telangana;India;IN;5
Pune;Maharashtra;India;IN;4
Mumbai;Maharashtra;India;IN;3
Chennai;Tamil Nadu;India;IN;3
Gurugram;Haryana;India;IN;2
Noida;Uttar Pradesh;India;IN;2
New Delhi;Delhi;India;IN;2
Kolkata;West Bengal;India;IN;1
Kochi;Kerala;India;IN;1
Ahmedabad;Gujarat;India;IN;1
Karachi;Sindh;Pakistan;PK;1
Lahore;Punjab;Pakistan;PK;1
Islamabad;Islamabad Capital Territory;Pakistan;PK;1
Dhaka;Dhaka Division;Bangladesh;BD;2
Colombo;Western Province;Sri Lanka;LK;1
Kathmandu;Bagmati Province;Nepal;NP;1
Beijing;Beijing;China;CN;5
Shanghai;Shanghai;China;CN;5
Shenzhen;Guangdong;China;CN;4
Hangzhou;Zhejiang;China;CN;3
Guangzhou;Guangdong;China;CN;2
Chengdu;Sichuan;China;CN;2
Nanjing;Jiangsu;China;CN;1
Wuhan;Hubei;China;CN;1
Hong Kong;Hong Kong;Hong Kong;HK;2
Taipei;Taipei City;Taiwan;TW;2
Hsinchu;Hsinchu City;Taiwan;TW;1
Tokyo;Tokyo;Japan;JP;5
Osaka;Osaka;Japan;JP;1
Kyoto;Kyoto;Japan;JP;1
Fukuoka;Fukuoka;Japan;JP;1
Seoul;Seoul;South Korea;KR;4
Pangyo;Gyeonggi-do;South Korea;KR;1
Busan;Busan;South Korea;KR;1
Singapore;Singapore;Singapore;SG;3
Kuala Lumpur;Federal Territory of Kuala Lumpur;Malaysia;MY;1
Bangkok;Bangkok;Thailand;TH;1
Ho Chi Minh City;Ho Chi Minh City;Vietnam;VN;2
Hanoi;Hanoi;Vietnam;VN;2
Jakarta;Jakarta;Indonesia;ID;2
Bandung;West Java;Indonesia;ID;1
Manila;Metro Manila;Philippines;PH;1
Cebu City;Central Visayas;Philippines;PH;1
Sydney;New South Wales;Australia;AU;4
Melbourne;Victoria;Australia;AU;3
Brisbane;Queensland;Australia;AU;1
Perth;Western Australia;Australia;AU;1
Auckland;Auckland;New Zealand;NZ;1
Wellington;Wellington;New Zealand;NZ;1
"""

# Cities whose name is also their region (or that are a country of their own): printed as "City, Country".
_CITIES: tuple[tuple[Location, Location, int], ...] = tuple(
    (
        Location(city=city, region=region, country=country, country_code=code),
        Location(city=city, region="", country=country, country_code=code),
        int(weight),
    )
    for city, region, country, code, weight in (line.split(";") for line in _CITIES_TEXT.strip().splitlines())
)
_CITY_WEIGHTS = tuple(c[2] for c in _CITIES)

# ---------------------------------------------------------------------------------------------------------------------
# Work and school.
# ---------------------------------------------------------------------------------------------------------------------

_TITLES = _split(
    "Software Engineer|Senior Software Engineer|Staff Software Engineer|Principal Software Engineer|"
    "Software Engineer II|Software Developer|Senior Software Developer|Backend Engineer|Senior Backend Engineer|"
    "Frontend Engineer|Senior Frontend Developer|Full Stack Developer|Full Stack Engineer|Mobile Engineer|"
    "iOS Developer|Android Developer|DevOps Engineer|Site Reliability Engineer|Platform Engineer|Cloud Architect|"
    "Data Engineer|Senior Data Engineer|Data Scientist|Machine Learning Engineer|Senior Machine Learning Engineer|"
    "Research Scientist|Research Engineer|Applied Scientist|Security Engineer|Embedded Software Engineer|"
    "Systems Engineer|Compiler Engineer|Game Developer|Engineering Manager|Tech Lead|Lead Developer|"
    "Solutions Architect|Software Architect|CTO|Co-founder & CTO|Founding Engineer|Member of Technical Staff|"
    "Independent Consultant|Open Source Maintainer|Blockchain Developer|QA Automation Engineer"
)
# Weighted toward the plain engineering titles.
_TITLE_WEIGHTS = tuple(6 if i < 12 else 2 for i in range(len(_TITLES)))

_COMPANIES = _split(
    "Google|Microsoft|Amazon|Apple|Meta|Netflix|Stripe|Shopify|Atlassian|Spotify|Uber|Airbnb|Salesforce|Oracle|"
    "IBM|Intel|NVIDIA|AMD|Adobe|Red Hat|GitLab|GitHub|Cloudflare|Datadog|MongoDB|Elastic|Canonical|JetBrains|"
    "SAP|Siemens|Bosch|Zalando|Booking.com|Adyen|Klarna|Revolut|Wise|Mercado Libre|Nubank|Rappi|Infosys|"
    "Tata Consultancy Services|Wipro|Flipkart|Razorpay|Zoho|Swiggy|Alibaba|Tencent|ByteDance|Baidu|Huawei|"
    "Rakuten|LINE|Samsung|Naver|Kakao|Grab|Sea|Canva|Xero|Andela|Paystack|Flutterwave|Yandex|EPAM Systems|"
    "Thoughtworks|Accenture|Capgemini|Globant|Toptal|"
    "Northwind Labs|Bluefin Analytics|Copperleaf Systems|Quillstack|Harborview Software|Tidewater Data|Lumen Forge|"
    "Brightpath Robotics|Cobalt Circuit|Kestrel Cloud|Vantage Point Labs|Maplewood Digital|Ironbark Security|"
    "Nimbus Works|Parallax Studios|Fernhill Health|Orbital Freight|Saltmarsh Games|Junction Fintech|"
    "Riverstone Logistics|Blue Heron AI|Pinecrest Energy|Alder & Finch|Gridline Mobility|Sparrowhawk|Halcyon Bio|"
    "Meridian Payments|Lattice Point|Stonebridge Labs|Cinder Systems|Velvet Compute|Kite Ledger|Oakridge Media|"
    "Quarry Data|Solstice Telecom|Wavecrest|Emberline|Mosaic Learning|Polaris Insurance Tech|Foxglove Software|"
    "Tessellate|Bramble Commerce|Northstar Retail Tech|Crescent Robotics|Silverline Networks|Driftwood Apps|"
    "Larkspur Systems|Granite Peak Software|Zephyr Labs|Obsidian Edge|Marigold Health|Aurora Fleet|Beacon Civic|"
    "Cedar & Pine|Helix Genomics|Juniper Grid|Mistral Dynamics|Quantum Orchard|Redwood Analytics|Summit Ledger|"
    "Thistle AI|Umber Studios|Waypoint Maps|Yarrow Finance"
)
_BIG_COMPANIES = 78  # the first entries are large, well-known employers: drawn more often

_SCHOOLS = _split(
    "Massachusetts Institute of Technology|Stanford University|Carnegie Mellon University|Harvard University|"
    "University of California Berkeley|Georgia Institute of Technology|University of Washington|Cornell University|"
    "Princeton University|University of Illinois Urbana-Champaign|University of Michigan|University of Texas at Austin|"
    "Purdue University|University of Wisconsin-Madison|Columbia University|New York University|Rice University|"
    "University of Southern California|University of California San Diego|Arizona State University|"
    "Penn State University|Virginia Tech|University of Maryland|Northeastern University|Rutgers University|"
    "University of Toronto|University of Waterloo|University of British Columbia|McGill University|"
    "University of Oxford|University of Cambridge|Imperial College London|University College London|"
    "University of Edinburgh|University of Manchester|Trinity College Dublin|ETH Zurich|EPFL|"
    "Technical University of Munich|Karlsruhe Institute of Technology|RWTH Aachen University|"
    "Humboldt University of Berlin|Delft University of Technology|University of Amsterdam|KU Leuven|"
    "KTH Royal Institute of Technology|Chalmers University of Technology|Aalto University|University of Helsinki|"
    "Technical University of Denmark|Norwegian University of Science and Technology|Sorbonne University|"
    "École Polytechnique|Politecnico di Milano|Sapienza University of Rome|Universidad Politécnica de Madrid|"
    "Universitat Politècnica de Catalunya|University of Lisbon|University of Porto|Warsaw University of Technology|"
    "AGH University of Krakow|Czech Technical University in Prague|Kyiv Polytechnic Institute|"
    "Taras Shevchenko National University of Kyiv|Moscow Institute of Physics and Technology|"
    "Politehnica University of Bucharest|University of Belgrade|Budapest University of Technology and Economics|"
    "Middle East Technical University|Bogazici University|Technion - Israel Institute of Technology|"
    "Tel Aviv University|Cairo University|American University of Beirut|University of Lagos|"
    "Obafemi Awolowo University|University of Nairobi|University of Cape Town|University of the Witwatersrand|"
    "Kwame Nkrumah University of Science and Technology|Addis Ababa University|"
    "Indian Institute of Technology Bombay|Indian Institute of Technology Delhi|Indian Institute of Technology Madras|"
    "Indian Institute of Technology Kharagpur|BITS Pilani|IIIT Hyderabad|Anna University|"
    "Vellore Institute of Technology|Delhi Technological University|University of Dhaka|"
    "Lahore University of Management Sciences|University of Moratuwa|Tsinghua University|Peking University|"
    "Zhejiang University|Shanghai Jiao Tong University|Fudan University|Nanjing University|"
    "Huazhong University of Science and Technology|Harbin Institute of Technology|"
    "The Hong Kong University of Science and Technology|National Taiwan University|University of Tokyo|"
    "Kyoto University|Tokyo Institute of Technology|Seoul National University|KAIST|Korea University|"
    "National University of Singapore|Nanyang Technological University|University of Malaya|"
    "Bandung Institute of Technology|Hanoi University of Science and Technology|University of the Philippines|"
    "University of Melbourne|University of Sydney|Australian National University|University of New South Wales|"
    "University of Auckland|University of São Paulo|University of Campinas|Federal University of Rio de Janeiro|"
    "University of Buenos Aires|Pontifical Catholic University of Chile|National University of Colombia|"
    "National Autonomous University of Mexico|Monterrey Institute of Technology|Open University"
)
# Degrees as the parser lists them (progai.DEGREES), repeats weighting the draw. One bachelor's degree is left out of
# that list on purpose: the parser reads it by its pattern for "Bachelor of Subject (Abbreviation)".
_UNLISTED_DEGREE = "Bachelor of Computer Science (BCompSc)"
_DEGREES_BACHELOR = _known(
    (*DEGREES, _UNLISTED_DEGREE),
    _split(
        "Bachelor's Degree|Bachelor's Degree|Bachelor of Science (B.Sc.)|Bachelor of Science (BS)|"
        "Bachelor of Engineering (B.E.)|Bachelor of Technology (B.Tech.)|Bachelor of Arts (B.A.)|"
        f"{_UNLISTED_DEGREE}|Associate's Degree"
    ),
)
_DEGREES_MASTER = _known(
    DEGREES,
    _split(
        "Master's Degree|Master's Degree|Master of Science (M.Sc.)|Master of Science (MS)|"
        "Master of Engineering (M.Eng.)|Master of Technology (M.Tech.)|Master of Computer Applications (MCA)|"
        "Master of Business Administration (MBA)"
    ),
)
_DEGREES_DOCTOR = _known(
    DEGREES, _split("Doctor of Philosophy (Ph.D.)|Doctor of Philosophy (Ph.D.)|Doctor of Engineering (D.Eng.)")
)
_DEGREE_LADDER = (_DEGREES_BACHELOR, _DEGREES_MASTER, _DEGREES_DOCTOR)
_FIELDS = _split(
    "Computer Science|Computer Science|Computer Science|Computer Engineering|Software Engineering|"
    "Electrical Engineering|Electrical and Electronics Engineering|Information Technology|Information Systems|"
    "Mathematics|Applied Mathematics|Physics|Statistics|Data Science|Artificial Intelligence|Machine Learning|"
    "Computational Linguistics|Bioinformatics|Mechanical Engineering|Economics|Cognitive Science|"
    "Human-Computer Interaction|Telecommunications Engineering|Robotics|Cybersecurity|Operations Research"
)
_MINORS = _split("Mathematics|Physics|Economics|Statistics|Philosophy|Linguistics|Music|Business|Psychology|Biology")

# ---------------------------------------------------------------------------------------------------------------------
# Skills: GitHub-style labels in clusters (a person's stack), aliases of one skill included (react/reactjs, ...).
# ---------------------------------------------------------------------------------------------------------------------

# cluster: (labels, repository nouns, topics, contribution roles, domain phrase for summaries, weight)
_CLUSTERS: dict[str, tuple[str, str, str, str, str, int]] = {
    "python": (
        "python|python3|django|flask|fastapi|pandas|numpy|scipy|pytest|celery|sqlalchemy|jupyter|pydantic|asyncio|"
        "pip|poetry|django-rest-framework|matplotlib|cython|typing",
        "orm|scheduler|toolkit|validator|task-queue|config|linter|web-framework|http-client|cli|migrations|admin|"
        "serializer|profiler|packaging|notebook|dataframe|templating",
        "python|django|flask|fastapi|asyncio|api|rest-api|library|cli|typing|web-framework|orm|python3|pypi|"
        "developer-tools|hacktoberfest",
        "Backend Developer|Back-end Developer|Python Developer|Maintainer|Contributor|Core Contributor",
        "Python backends and developer tooling",
        14,
    ),
    "ml": (
        "machine-learning|deep-learning|tensorflow|pytorch|keras|computer-vision|nlp|natural-language-processing|"
        "data-science|data-analysis|neural-networks|reinforcement-learning|transformers|llm|huggingface|xgboost|"
        "opencv|mlops|statistics|jax|scikit-learn|large-language-models|generative-ai|rag|onnx",
        "trainer|embeddings|tokenizer|inference|vision|detector|diffusion|agents|benchmark|datasets|autograd|"
        "feature-store|segmentation|classifier|llm-eval|quantizer",
        "machine-learning|deep-learning|pytorch|tensorflow|ml|ai|nlp|computer-vision|llm|transformers|data-science|"
        "neural-network|mlops|generative-ai|research|python",
        "Machine Learning Engineer|ML Engineer|Data Scientist|Research Engineer|Contributor|Core Contributor",
        "machine learning systems",
        11,
    ),
    "frontend": (
        "javascript|js|typescript|react|reactjs|redux|vue|vuejs|vue3|angular|svelte|nextjs|nuxt|html|html5|css|css3|"
        "sass|tailwindcss|webpack|vite|jquery|bootstrap|d3|frontend|web-components|es6|storybook|accessibility|"
        "responsive-design",
        "ui|components|dashboard|design-system|forms|router|charts|icons|editor|datepicker|state|hooks|animations|"
        "starter|theme|devtools",
        "javascript|typescript|react|vue|angular|svelte|frontend|css|html|ui|components|design-system|nextjs|"
        "web|hacktoberfest|accessibility",
        "Frontend Developer|Front-end Developer|UI Developer|Full-stack Developer|Contributor|Maintainer",
        "web frontends and design systems",
        14,
    ),
    "node": (
        "nodejs|node|express|nestjs|npm|deno|rest-api|api|websocket|socket-io|jest|mocha|graphql|bun|prisma|"
        "typescript|javascript",
        "server|middleware|gateway|sdk|bundler|monorepo|auth|queue|realtime|api-client|cli|logger|bot",
        "nodejs|javascript|typescript|express|api|graphql|npm|backend|websocket|rest|sdk|deno|bun",
        "Backend Developer|Back-end Developer|Full-stack Developer|Fullstack Developer|Node.js Developer|Maintainer",
        "Node.js services and APIs",
        9,
    ),
    "jvm": (
        "java|kotlin|scala|spring|spring-boot|maven|gradle|hibernate|junit|jvm|groovy|akka|microservices|jakarta-ee|"
        "reactive-programming",
        "service|framework|client|streams|plugin|starter|cache|batch|connector|mapper|validator|scheduler",
        "java|kotlin|scala|spring|spring-boot|jvm|gradle|maven|microservices|library|framework|reactive",
        "Backend Developer|Back-end Developer|Java Developer|Software Engineer|Maintainer|Contributor",
        "JVM services at scale",
        9,
    ),
    "dotnet": (
        "csharp|c-sharp|dotnet|asp-net|aspnet-core|entity-framework|unity|xamarin|blazor|f-sharp|wpf|azure",
        "toolkit|framework|extensions|analyzers|identity|mediator|logging|orm|sdk|templates",
        "csharp|dotnet|aspnet-core|blazor|unity|azure|nuget|library|framework|game-development",
        "Backend Developer|.NET Developer|Software Engineer|Contributor|Maintainer",
        ".NET applications",
        5,
    ),
    "systems": (
        "c-language|cprogramming-language|c|cpp|c-plus-plus|rust|golang|go|assembly|linux-kernel|embedded|llvm|"
        "compiler|compiler-design|operating-systems|concurrency|multithreading|performance|optimization|cuda|simd|"
        "memory-management|zig|webassembly|xla|hla|dataflow|operation|analyse|rtos|firmware",
        "runtime|allocator|kernel|compiler|vm|interpreter|fs|scheduler|profiler|debugger|emulator|bootloader|"
        "firmware|codec|hashmap|async-runtime",
        "c|cpp|rust|go|golang|compiler|llvm|linux|kernel|embedded|performance|systems-programming|webassembly|"
        "operating-system|low-level|concurrency|community-driven|modular",
        "Systems Programmer|Back-end Developer|Compiler Engineer|Embedded Developer|Maintainer|Core Contributor",
        "high-performance systems software",
        10,
    ),
    "cloud": (
        "kubernetes|k8s|docker|terraform|ansible|aws|gcp|azure|helm|ci-cd|github-actions|jenkins|prometheus|grafana|"
        "devops|linux|bash|shell|nginx|serverless|microservices|istio|observability|sre|golang|opentelemetry|"
        "infrastructure-as-code|argocd",
        "operator|controller|exporter|provider|charts|pipeline|deploy|autoscaler|dashboard|agent|proxy|mesh|"
        "infra|backup",
        "kubernetes|docker|devops|terraform|aws|cloud|helm|observability|monitoring|ci-cd|infrastructure-as-code|"
        "prometheus|cloud-native|gitops|golang",
        "DevOps Engineer|Site Reliability Engineer|Platform Engineer|Cloud Engineer|Maintainer|Contributor",
        "cloud infrastructure and reliability",
        11,
    ),
    "data": (
        "sql|postgresql|postgres|mysql|sqlite|mongodb|redis|elasticsearch|kafka|spark|apache-spark|hadoop|airflow|"
        "dbt|etl|data-engineering|clickhouse|cassandra|bigquery|snowflake|database|duckdb|stream-processing|"
        "data-pipelines",
        "connector|warehouse|pipeline|ingest|lake|query-engine|replicator|migrations|cdc|scheduler|sink|catalog",
        "database|sql|postgresql|data-engineering|etl|kafka|spark|analytics|big-data|streaming|data-pipeline|"
        "olap|airflow",
        "Data Engineer|Back-end Developer|Database Engineer|Analytics Engineer|Contributor|Maintainer",
        "data platforms and pipelines",
        9,
    ),
    "mobile": (
        "ios|swift|swiftui|objective-c|flutter|dart|android|kotlin|jetpack-compose|mobile|react-native|xcode|"
        "android-sdk|cocoapods",
        "app|kit|navigation|camera|charts|player|sdk|widgets|permissions|maps|onboarding|analytics",
        "ios|android|swift|kotlin|flutter|dart|mobile|react-native|swiftui|jetpack-compose|app|sdk",
        "Mobile Developer|iOS Developer|Android Developer|Flutter Developer|Contributor|Maintainer",
        "mobile apps",
        8,
    ),
    "web3": (
        "web3|blockchain|ethereum|solidity|smart-contracts|cryptocurrency|bitcoin|defi|nft|hardhat|cryptography|"
        "zero-knowledge|evm",
        "wallet|contracts|bridge|indexer|dex|oracle|explorer|node|sdk|vault|zk-prover",
        "blockchain|ethereum|web3|solidity|smart-contracts|defi|cryptography|bitcoin|evm|dapp",
        "Blockchain Developer|Smart Contract Developer|Back-end Developer|Contributor|Core Contributor",
        "blockchain protocols",
        4,
    ),
    "php_ruby": (
        "php|laravel|symfony|wordpress|ruby|ruby-on-rails|rails|rspec|sinatra|composer|drupal|magento",
        "cms|plugin|admin|gem|bundle|theme|shop|auth|api|payments",
        "php|laravel|symfony|wordpress|ruby|rails|ruby-on-rails|cms|ecommerce|gem|plugin",
        "Backend Developer|Full-stack Developer|Web Developer|Contributor|Maintainer",
        "web applications",
        6,
    ),
    "graphics": (
        "game-development|opengl|vulkan|unreal-engine|godot|graphics|shaders|3d|webgl|three-js|gamedev|directx|"
        "physics-engine",
        "engine|renderer|shaders|physics|ecs|editor|raytracer|terrain|sprites|audio",
        "game-engine|gamedev|graphics|opengl|vulkan|3d|rendering|webgl|godot|shaders|game-development",
        "Game Developer|Graphics Programmer|Engine Developer|Contributor|Maintainer",
        "game engines and real-time graphics",
        4,
    ),
    "science": (
        "r|matlab|julia|fortran|haskell|elixir|erlang|clojure|ocaml|lua|perl|scientific-computing|bioinformatics|hpc|"
        "mpi|openmp|numerical-methods|functional-programming|simulation",
        "solver|simulator|genomics|stats|numerics|mesh|climate|pipeline|notebook|interpreter",
        "scientific-computing|hpc|bioinformatics|julia|r|haskell|elixir|functional-programming|simulation|research|"
        "mathematics|statistics",
        "Research Software Engineer|Scientific Programmer|Contributor|Maintainer",
        "scientific and research software",
        4,
    ),
    "security": (
        "security|penetration-testing|cryptography|oauth|authentication|reverse-engineering|fuzzing|malware-analysis|"
        "vulnerability-management|appsec|devsecops|networking",
        "scanner|fuzzer|vault|auth|sandbox|firewall|audit|secrets|sbom|detector",
        "security|cybersecurity|pentest|cryptography|oauth|authentication|fuzzing|infosec|devsecops|privacy",
        "Security Engineer|Security Researcher|Back-end Developer|Contributor|Maintainer",
        "application security",
        4,
    ),
}

# Skills anyone may list, whatever the stack.
_GENERAL_SKILLS = _split(
    "git|testing|unit-testing|algorithms|data-structures|security|networking|distributed-systems|api-design|"
    "documentation|open-source|refactoring|debugging|agile|oop|functional-programming|design-patterns|cli|"
    "automation|scripting|parsing|json|yaml|xml|http|grpc|protobuf|regex|software-architecture|code-review|"
    "continuous-integration|linux|bash|markdown|integration-testing|caching|web-development|backend|"
    "object-oriented-programming|system-design|problem-solving|version-control"
)
_GENERIC_TOPICS = _split(
    "open-source|hacktoberfest|library|framework|cli|community-driven|modular|self-hosted|tooling|"
    "developer-tools|awesome|productivity|cross-platform|plugin|sdk|hacktoberfest2023|good-first-issue"
)

_CLUSTER_KEYS = tuple(_CLUSTERS)
_CLUSTER_LABELS = tuple(_split(v[0]) for v in _CLUSTERS.values())
_CLUSTER_NOUNS = tuple(_split(v[1]) for v in _CLUSTERS.values())
_CLUSTER_TOPICS = tuple(_split(v[2]) for v in _CLUSTERS.values())
_CLUSTER_ROLES = tuple(_split(v[3]) for v in _CLUSTERS.values())
_CLUSTER_DOMAIN = tuple(v[4] for v in _CLUSTERS.values())
_CLUSTER_WEIGHTS = tuple(v[5] for v in _CLUSTERS.values())

SKILL_LABELS: tuple[str, ...] = tuple(dict.fromkeys([*(x for c in _CLUSTER_LABELS for x in c), *_GENERAL_SKILLS]))
_SKILL_INDEX = {label: i for i, label in enumerate(SKILL_LABELS)}
_CLUSTER_SKILL_IDS = tuple(tuple(_SKILL_INDEX[x] for x in c) for c in _CLUSTER_LABELS)
_GENERAL_SKILL_IDS = tuple(_SKILL_INDEX[x] for x in _GENERAL_SKILLS)
# One immutable SkillEntry per (label, score): documents share them (frozen dataclasses), which keeps generation fast.
_SKILL_ENTRIES = tuple(tuple(SkillEntry(label=label, score=s) for s in range(11)) for label in SKILL_LABELS)

# Aliases of one skill: JSON Resume output lists them as keywords.
_ALIAS_GROUPS = (
    ("c-language", "cprogramming-language", "c"),
    ("react", "reactjs"),
    ("vue", "vuejs"),
    ("golang", "go"),
    ("kubernetes", "k8s"),
    ("postgresql", "postgres"),
    ("cpp", "c-plus-plus"),
    ("csharp", "c-sharp"),
    ("nodejs", "node"),
    ("spark", "apache-spark"),
    ("rails", "ruby-on-rails"),
    ("nlp", "natural-language-processing"),
    ("javascript", "js"),
    ("html", "html5"),
    ("css", "css3"),
    ("llm", "large-language-models"),
)
_ALIASES = {label: tuple(x for x in group if x != label) for group in _ALIAS_GROUPS for label in group}

# Skill scores lean high: a Prog.AI profile lists what its owner is good at.
_SCORE_TABLE = tuple(
    s for s, w in zip(range(1, 11), (1, 2, 3, 4, 6, 10, 14, 18, 20, 22), strict=True) for _ in range(w)
)
_SCORE_TABLE_HIGH = tuple(s for s in _SCORE_TABLE if s >= 6)
# The JSON Resume level written for each score 0-10, in the parser's words (jsonresume.LEVELS), capitalised.
_LEVELS = tuple(
    level.capitalize()
    for level in _known(
        LEVELS,
        _split(
            "beginner|beginner|beginner|beginner|beginner|intermediate|intermediate|advanced|advanced|expert|master"
        ),
    )
)

# ---------------------------------------------------------------------------------------------------------------------
# Repositories: ~5,000 owner/name pairs built from word pools, each with a stack, a description and topics.
# ---------------------------------------------------------------------------------------------------------------------

_OWNER_PARTS_A = _split(
    "open|cloud|data|byte|code|dev|hyper|micro|nano|quantum|swift|rapid|bright|blue|red|green|iron|silver|"
    "golden|north|east|polar|solar|lunar|stellar|cyber|pixel|vector|tensor|graph|stream|flux|nimbus|cobalt|"
    "amber|crimson|neon|arctic|ember|signal|vertex|matrix|atomic|binary|logic|meta|ultra|alpha|delta|sigma"
)
_OWNER_PARTS_B = _split(
    "labs|works|hub|forge|stack|base|craft|systems|org|io|dev|hq|foundation|project|collective|tools|soft|ware|"
    "verse|grid|net|cloud|ai|ops|kit|bits|scale|wave|sphere|core"
)
_REPO_ADJECTIVES = _split(
    "fast|tiny|simple|async|lazy|smart|secure|minimal|modern|reactive|awesome|better|micro|super|hyper|open|"
    "light|quick|clean|strict|typed|distributed|realtime|portable|embedded|elastic|native|universal|headless|zero"
)
_DESCRIPTION_TEMPLATES = (
    "A {adj} {noun} for {domain}",
    "{Adj} and extensible {noun} written with {skill}",
    "The {noun} that makes {skill} projects {adj2}",
    "{Adj} {noun} built on {skill}",
    "Production-ready {noun} for {skill} applications",
    "An opinionated {noun} for teams using {skill}",
    "Community-maintained {noun} for {skill}",
    "{Adj} {noun}: {adj2}, tested and documented",
)
_ADJ2 = _split("fast|simple|reliable|boring|observable|portable|delightful|scalable|predictable|composable")


def _build_repositories(size: int = 5000) -> tuple[tuple[str, str, tuple[str, ...], int], ...]:
    rng = Random(20_240_611)
    owners: list[str] = []
    seen_owner: set[str] = set()
    while len(owners) < 700:
        style = rng.random()
        if style < 0.45:
            owner = rng.choice(_OWNER_PARTS_A) + rng.choice(_OWNER_PARTS_B)
        elif style < 0.65:
            owner = f"{rng.choice(_OWNER_PARTS_A)}-{rng.choice(_OWNER_PARTS_B)}"
        else:  # a person's account
            first = _slug(rng.choice(_ALL_FIRST)).replace("-", "")
            last = _slug(rng.choice(_ALL_LAST)).replace("-", "")
            owner = rng.choice((f"{first}{last}", f"{first[0]}{last}", f"{first}-{last}", f"{first}{last[:3]}"))
        if owner not in seen_owner:
            seen_owner.add(owner)
            owners.append(owner)
    repos: list[tuple[str, str, tuple[str, ...], int]] = []
    seen: set[str] = set()
    while len(repos) < size:
        cluster = rng.choices(range(len(_CLUSTER_KEYS)), weights=_CLUSTER_WEIGHTS)[0]
        noun = rng.choice(_CLUSTER_NOUNS[cluster])
        skill = rng.choice(_CLUSTER_LABELS[cluster])
        adj = rng.choice(_REPO_ADJECTIVES)
        style = rng.random()
        if style < 0.35:
            name = f"{adj}-{noun}"
        elif style < 0.55:
            name = f"{skill}-{noun}"
        elif style < 0.7:
            name = f"{noun}{rng.choice(('', 'x', 'ify', 'ly', 'kit', 'io', 'js', 'py', 'rs', '-go'))}"
        elif style < 0.85:
            name = f"{rng.choice(_OWNER_PARTS_A)}{noun.replace('-', '')}"
        else:
            name = f"{adj}{noun.replace('-', '')}"
        full = f"{rng.choice(owners)}/{name}"
        if full in seen:
            continue
        seen.add(full)
        template = rng.choice(_DESCRIPTION_TEMPLATES)
        description = template.format(
            adj=adj,
            Adj=adj.capitalize(),
            adj2=rng.choice(_ADJ2),
            noun=noun.replace("-", " "),
            domain=_CLUSTER_DOMAIN[cluster],
            skill=skill,
        )
        n_topics = rng.choice((0, 2, 3, 3, 4, 4, 5, 6))
        pool = _CLUSTER_TOPICS[cluster]
        topics = list(dict.fromkeys(rng.sample(pool, min(n_topics, len(pool)))))
        if topics and rng.random() < 0.3:
            topics.append(rng.choice(_GENERIC_TOPICS))
        repos.append((full, description, tuple(dict.fromkeys(topics)), cluster))
    return tuple(repos)


# ---------------------------------------------------------------------------------------------------------------------
# Names to ASCII (slugs, GitHub usernames, e-mail addresses).
# ---------------------------------------------------------------------------------------------------------------------

_ASCII_FOLD = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "ß": "ss", "đ": "d", "Đ": "D", "æ": "ae",
                             "Æ": "Ae", "œ": "oe", "ı": "i", "ð": "d", "þ": "th"})  # fmt: skip
_word_slugs: dict[str, str] = {}


def _word_slug(word: str) -> str:
    """One word (a name part) as ASCII lower case, inner punctuation as hyphens; cached: name parts repeat."""
    cached = _word_slugs.get(word)
    if cached is None:
        folded = unicodedata.normalize("NFKD", word.translate(_ASCII_FOLD)).encode("ascii", "ignore").decode("ascii")
        cached = "-".join("".join(ch if ch.isalnum() else " " for ch in folded.lower()).split())
        if len(_word_slugs) < 200_000:
            _word_slugs[word] = cached
    return cached


def _slug(text: str) -> str:
    """ASCII, lower case, words joined by hyphens: ``"Nguyễn Thị Ánh"`` -> ``"nguyen-thi-anh"``."""
    return "-".join(filter(None, map(_word_slug, text.split()))) or "profile"


_REPOSITORIES = _build_repositories()
_CLUSTER_REPOS = tuple(tuple(i for i, r in enumerate(_REPOSITORIES) if r[3] == c) for c in range(len(_CLUSTER_KEYS)))
_N_REPOSITORIES = len(_REPOSITORIES)
# Every topic a generated repository carries: the vocabulary that splits a glued topics line back into topics.
TOPIC_LABELS: tuple[str, ...] = tuple(dict.fromkeys(t for r in _REPOSITORIES for t in r[2]))
# (owner/name, name, description, topics, topics glued, roles) for the hot loop.
_REPO_DATA = tuple(
    (full, full.partition("/")[2], description, topics, "".join(topics), _CLUSTER_ROLES[cluster])
    for full, description, topics, cluster in _REPOSITORIES
)

# ---------------------------------------------------------------------------------------------------------------------
# Prose: summaries and contribution summaries from sentence templates.
# ---------------------------------------------------------------------------------------------------------------------

_SUMMARY_OPENERS = (
    "{name} is {a_title} at {company} with {years} of experience building {domain}, specializing in {s1}, {s2}, "
    "and {s3}.",
    "{name} is {a_title} with {years} of hands-on experience in {domain}, working mostly with {s1} and {s2}.",
    "{name} is {a_title} based in {city} who has spent {years} on {domain}, with deep expertise in {s1}, {s2} "
    "and {s3}.",
    "{name} is an experienced {title} focused on {domain}; day to day that means {s1}, {s2} and a good deal of {s3}.",
    "{name} is {a_title} at {company}, where {first} works on {domain} with {s1} and {s2}.",
)
_SUMMARY_EDUCATION = (
    "{first} holds a {degree} in {field} from {school}.",
    "{first} studied {field} at {school}.",
    "A graduate of {school}, {first} brings a strong grounding in {field} to production work.",
)
_SUMMARY_MIDDLE = (
    "Open-source contributions to projects such as {repo} show a steady focus on {topic} and careful code review.",
    "{first}'s open-source work on {repo} improved {topic} support and cut down on long-standing bugs.",
    "Across {contribs} public repositories, {first} has contributed fixes, features and documentation around {topic}.",
    "Colleagues describe {first} as a pragmatic engineer who turns vague requirements into well-tested {s1} code.",
    "{first} blends systems thinking with practical engineering, from prototypes to services running in production.",
    "Based in {city}, {first} mentors junior developers and writes about {s2} in spare time.",
    "{first} cares about developer experience, performance budgets and clear documentation.",
)
_CONTRIB_SENTENCES = (
    "{first} contributed to the {area} of {repo_name}, {verb} {thing} and keeping the public API stable.",
    "Their work involved {verbing} the {area}, adding tests and documentation for the new behaviour.",
    "{first} fixed a long-standing bug in the {area} and added regression tests to prevent it from coming back.",
    "The user also implemented {thing}, improving {quality} for downstream projects.",
    "Furthermore, they refactored the {area}, simplifying the code and improving {quality}.",
    "{first}'s commits focused on {thing}, reviewed and merged after discussion with the maintainers.",
    "They extended the {area} to support {thing}, which made the project easier to adopt.",
    "These changes contribute to improving {quality} and the overall reliability of the project.",
)
_AREAS = _split(
    "build system|test suite|command-line interface|configuration loader|plugin system|query planner|scheduler|"
    "parser|documentation site|continuous integration setup|serialization layer|HTTP client|caching layer|"
    "type annotations|error handling|logging|release tooling|authentication flow|storage backend|public API"
)
_THINGS = _split(
    "streaming support|a retry policy|incremental builds|async handlers|a new configuration option|"
    "better error messages|structured logging|support for the latest runtime|a faster code path|pagination|"
    "internationalization|a migration guide|metrics export|lazy loading|a plugin hook|cross-platform packaging"
)
_VERBS = _split("adding|reworking|optimizing|documenting|extending|stabilizing|rewriting|hardening")
_VERBS_PAST = _split("adding|introducing|reworking|optimizing|documenting|extending|hardening")
_QUALITIES = _split(
    "performance|maintainability|test coverage|startup time|memory usage|developer experience|correctness|compatibility"
)


def _build_contribution_bank(variants: int = 48) -> tuple[tuple[str, ...], ...]:
    """Each contribution-summary sentence pre-filled many ways; only the person and repository are left to fill."""
    rng = Random(7_100_421)
    return tuple(
        tuple(
            template.format(
                first="{first}",
                repo_name="{repo_name}",
                area=rng.choice(_AREAS),
                thing=rng.choice(_THINGS),
                verb=rng.choice(_VERBS_PAST),
                verbing=rng.choice(_VERBS),
                quality=rng.choice(_QUALITIES),
            )
            for _ in range(variants)
        )
        for template in _CONTRIB_SENTENCES
    )


_CONTRIB_BANK = _build_contribution_bank()


def _build_contribution_summaries(size: int = 1024) -> tuple[tuple[tuple[str, ...], bool], ...]:
    """Whole contribution summaries (2-4 sentences in a sensible order) with ``{first}``/``{repo_name}`` to fill."""
    rng = Random(7_100_422)
    bank = _CONTRIB_BANK
    n = len(bank)
    out = []
    for _ in range(size):
        at = rng.randrange(n)
        steps = (0, 3, 6, 1)[: rng.choice((2, 2, 3, 3, 3, 4))]
        text = " ".join(rng.choice(bank[(at + step) % n]) for step in steps)
        # Split on the person's name so that filling it in is one str.join; the repository name is rarer.
        out.append((tuple(text.split("{first}")), "{repo_name}" in text))
    return tuple(out)


_CONTRIB_SUMMARIES = _build_contribution_summaries()
_EMAIL_DOMAINS = ("example.com", "example.org", "example.net", "mail.example.com", "dev.example.org")


# ---------------------------------------------------------------------------------------------------------------------
# Generation.
# ---------------------------------------------------------------------------------------------------------------------


def _years_text(n: int) -> str:
    return "1 year" if n == 1 else f"{n} years"


def _ym(index: int) -> str:
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


_NOW_INDEX = NOW_YEAR * 12 + NOW_MONTH - 1


def _weighted_table(weights: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(i for i, w in enumerate(weights) for _ in range(w))


_CULTURE_TABLE = _weighted_table(_CULTURE_WEIGHTS)
_CITY_TABLE = _weighted_table(_CITY_WEIGHTS)
_CLUSTER_TABLE = _weighted_table(_CLUSTER_WEIGHTS)
_TITLE_TABLE = _weighted_table(_TITLE_WEIGHTS)
_BADGE_TABLE = _weighted_table(_BADGE_WEIGHTS)
_CONTRIB_COUNT_TABLE = _weighted_table((14, 18, 19, 15, 11, 9, 6, 5, 3))
_EDU_COUNT_TABLE = _weighted_table((14, 46, 30, 10))
_BADGE_COUNT_TABLE = _weighted_table((40, 32, 20, 8))
_YEARS_TABLE = tuple(y for y in range(1, 31) for _ in range(max(1, round(30 * (0.93 ** abs(y - 8))))))


def _flat(text: str) -> str:
    """ASCII letters and digits only: for usernames and e-mail addresses."""
    return _slug(text).replace("-", "")


def _make_name(rnd, culture: int) -> tuple[str, str]:
    """(given names, family name): mostly of one culture; some people carry a given or family name from another."""
    firsts, lasts, _, mid_share, double_share, second_share = _CULTURE_DATA[culture]
    first = _ALL_FIRST[int(rnd() * _N_ALL_FIRST)] if rnd() < 0.12 else firsts[int(rnd() * len(firsts))]
    last = _ALL_LAST[int(rnd() * _N_ALL_LAST)] if rnd() < 0.3 else lasts[int(rnd() * len(lasts))]
    r = rnd()
    if r < double_share:
        second = lasts[int(rnd() * len(lasts))]
        if second != last:
            last = f"{last} {second}"
    elif r < double_share + mid_share:
        first = f"{first} {_INITIALS[int(rnd() * len(_INITIALS))]}."
    elif r > 1.0 - second_share:  # a second given name
        other = firsts[int(rnd() * len(firsts))]
        if other != first:
            first = f"{first} {other}"
    return first, last


def _github_username(rnd, f: str, last: str) -> str:
    """A GitHub-style username from the flattened given name ``f`` and family name ``last``."""
    r = rnd()
    if r < 0.3:
        user = f + last
    elif r < 0.5:
        user = f"{f}-{last}"
    elif r < 0.7:
        user = f[0] + last
    elif r < 0.8:
        user = f + last[:1]
    elif r < 0.9:
        user = last + f
    else:
        user = f + last[:4]
    if rnd() < 0.3:
        user = f"{user}{int(rnd() * 99) + 1}"
    return user[:39]


def _build_decks(ids: tuple[int, ...], scores: tuple[int, ...], count: int, rng: Random) -> tuple[tuple, ...]:
    """``count`` shuffled orderings of the skills ``ids``, each skill with a score drawn from ``scores``.

    Each deck is written twice so that any rotation of it is one slice. Dealing a slice of a random deck at a random
    place gives the spread of drawing skills and scores one by one, for a fraction of the cost.
    """
    decks = []
    for _ in range(count):
        order = list(ids)
        rng.shuffle(order)
        deck = [_SKILL_ENTRIES[sid][scores[rng.randrange(len(scores))]] for sid in order]
        decks.append((tuple(SKILL_LABELS[sid] for sid in order + order), tuple(deck + deck)))
    return tuple(decks)


_DECK_RNG = Random(3_141_592)
_CLUSTER_DECKS = tuple(_build_decks(ids, _SCORE_TABLE_HIGH, 64, _DECK_RNG) for ids in _CLUSTER_SKILL_IDS)


def _deal(rnd, decks: tuple[tuple[tuple, tuple], ...], k: int) -> tuple[tuple[str, ...], tuple[SkillEntry, ...]]:
    """``k`` consecutive skills (labels, entries) from a random place of a random deck."""
    labels, entries = decks[int(rnd() * len(decks))]
    size = len(labels) // 2
    offset = int(rnd() * size)
    end = offset + (k if k < size else size)
    return labels[offset:end], entries[offset:end]


def _build_rest_pools(size: int = 256, length: int = 40) -> tuple[tuple[tuple[str, ...], tuple[SkillEntry, ...]], ...]:
    """Per stack, and one for people with a single stack (last): lists of the skills a person has besides the main
    stack; from that other stack for about half, then general skills (git, testing, ...) and anything at all."""
    rng = Random(7_100_428)
    pools = []
    for cluster in (*range(len(_CLUSTER_KEYS)), None):
        pool = []
        for _ in range(size):
            picked: dict[str, SkillEntry] = {}
            if cluster is not None:
                ids = list(_CLUSTER_SKILL_IDS[cluster])
                rng.shuffle(ids)
                for sid in ids[: len(ids) // 2]:
                    picked[SKILL_LABELS[sid]] = _SKILL_ENTRIES[sid][rng.choice(_SCORE_TABLE)]
            while len(picked) < length:
                sid = rng.choice(_GENERAL_SKILL_IDS) if rng.random() < 0.65 else rng.randrange(len(SKILL_LABELS))
                picked.setdefault(SKILL_LABELS[sid], _SKILL_ENTRIES[sid][rng.choice(_SCORE_TABLE)])
            labels = tuple(picked)
            # Interleave so that any prefix mixes the other stack with general skills.
            order = sorted(range(len(labels)), key=lambda k: rng.random() + (0.6 if k >= len(labels) // 2 else 0))
            pool.append((tuple(labels[k] for k in order), tuple(picked[labels[k]] for k in order)))
        pools.append(tuple(pool))
    return tuple(pools)


_REST_POOLS = _build_rest_pools()


def _pick_skills(rnd, primary: int, secondary: tuple[int, ...], count: int) -> list[SkillEntry]:
    """About half the skills from the person's main stack (scored high), the rest from another stack, general skills
    and anything at all, sorted by score (highest first, as the export lists them).

    A skill dealt twice counts once (with its main-stack score), so a few profiles list a skill or two fewer than
    ``count``; never fewer than three.
    """
    main_labels, main = _deal(rnd, _CLUSTER_DECKS[primary], (count + 1) // 2)
    rest_pool = _REST_POOLS[secondary[int(rnd() * len(secondary))] if secondary else -1]
    rest_labels, rest = rest_pool[int(rnd() * len(rest_pool))]
    n_rest = count - len(main)
    chosen = dict(zip(rest_labels[:n_rest], rest[:n_rest]))  # noqa: B905 (parallel tuples)
    chosen.update(zip(main_labels, main))  # noqa: B905 (a main-stack skill keeps its main-stack score)
    if len(chosen) < 3:
        chosen.update(zip(rest_labels[n_rest : n_rest + 3], rest[n_rest : n_rest + 3]))  # noqa: B905
    skills = list(chosen.values())
    skills.sort(key=_SCORE_KEY, reverse=True)
    return skills


_SCORE_KEY = attrgetter("score")
_CONTRIBUTION_FIELDS = (
    "repository", "repository_description", "start", "end", "role", "commits", "comments", "active_months",
    "summary", "topics", "topics_raw", "is_current",
)  # fmt: skip


def _contribution_by_keywords(*values) -> ContributionEntry:
    return ContributionEntry(**dict(zip(_CONTRIBUTION_FIELDS, values, strict=True)))


# Positional construction is a third faster; fall back to keywords should the dataclass ever change its field order.
_new_contribution = (
    ContributionEntry
    if tuple(f.name for f in dataclasses.fields(ContributionEntry))[: len(_CONTRIBUTION_FIELDS)] == _CONTRIBUTION_FIELDS
    else _contribution_by_keywords
)
_YM = tuple(_ym(i) for i in range(_NOW_INDEX + 1 - 40 * 12, _NOW_INDEX + 1))
_YM_BASE = _NOW_INDEX + 1 - 40 * 12


def _contribution_sort_key(c: ContributionEntry) -> tuple[str, str]:
    return (c.end or "9999-99", c.start or "")


def _build_contribution_stubs(size: int = 4096) -> tuple[tuple, ...]:
    """Pre-drawn contribution shapes: ongoing?, end position, activity, commits, comments, summary, description?."""
    rng = Random(7_100_423)
    rnd = rng.random
    stubs = []
    for _ in range(size):
        current = rnd() < 0.22
        end_factor = rnd() * rnd()
        delta = int(rnd() * 3)
        r = rnd()
        if r < 0.12:
            commits, comments = 0, 1 + int(rnd() * rnd() * 40)
        else:
            commits = 1 + int(rnd() * rnd() * rnd() * 400)
            comments = 0 if r < 0.6 else 1 + int(rnd() * rnd() * 30)
        summary = rng.choice(_CONTRIB_SUMMARIES) if rnd() < 0.7 else None
        stubs.append((current, end_factor, delta, commits, comments, summary, rnd() < 0.88, rnd()))
    return tuple(stubs)


_CONTRIB_STUBS = _build_contribution_stubs()


def _pick_contributions(
    rnd, count: int, clusters: tuple[int, ...], first: str, years_coding: int
) -> list[ContributionEntry]:
    if not count:
        return []
    out = []
    used: list[int] = []
    earliest = max(_NOW_INDEX - years_coding * 12, 2008 * 12)  # GitHub opened in 2008
    span_total = _NOW_INDEX - earliest + 1
    stubs = _CONTRIB_STUBS
    n_stubs = len(stubs)
    now = _NOW_INDEX
    ym = _YM
    base = _YM_BASE
    n_clusters = len(clusters)
    cluster_repos, repo_data, n_repos, new = _CLUSTER_REPOS, _REPO_DATA, _N_REPOSITORIES, _new_contribution
    for _ in range(count):
        if rnd() < 0.8:
            pool = cluster_repos[clusters[int(rnd() * n_clusters)]]
            idx = pool[int(rnd() * len(pool))]
        else:
            idx = int(rnd() * n_repos)
        if idx in used:
            continue
        used.append(idx)
        full, repo_name, description, topics, topics_raw, roles = repo_data[idx]
        current, end_factor, delta, commits, comments, summary, keep_description, role_at = stubs[int(rnd() * n_stubs)]
        start = earliest + int(rnd() * span_total)
        end_index = now if current else start + int(end_factor * (now - start + 1))
        span = end_index - start
        if summary is None:
            text = ""
        else:
            text = first.join(summary[0])
            if summary[1]:
                text = text.replace("{repo_name}", repo_name)
        out.append(
            new(
                full,
                description if keep_description else "",
                ym[start - base],
                None if current else ym[end_index - base],
                roles[int(role_at * len(roles))],
                commits,
                comments,
                span - delta if span > 2 else 1,
                text,
                list(topics),
                topics_raw,
                current,
            )
        )
    # Newest first, ongoing ones on top, as the export lists them.
    out.sort(key=_contribution_sort_key, reverse=True)
    return out


def _build_summary_tails(with_contributions: bool, size: int = 96) -> tuple[str, ...]:
    rng = Random(7_100_424 + with_contributions)
    allowed = [t for i, t in enumerate(_SUMMARY_MIDDLE) if with_contributions or i > 2]
    return tuple(" ".join(rng.sample(allowed, rng.choice((1, 1, 2, 2, 3)))) for _ in range(size))


_SUMMARY_TAILS = (_build_summary_tails(False), _build_summary_tails(True))
_summary_templates: dict[int, str] = {}  # opener + education sentence + tail, joined once


def _make_summary(rnd, name: str, first: str, title: str, company: str, location: Location, years: int,
                  skills: list[SkillEntry], education: list[EducationEntry], contributions: list[ContributionEntry],
                  primary: int) -> str:  # fmt: skip
    labels = [s.label for s in skills[:3]]
    while len(labels) < 3:
        labels.append(labels[0] if labels else "software")
    opener_ix = int(rnd() * len(_SUMMARY_OPENERS))
    if not company and opener_ix in (0, 4):
        opener_ix = 1
    values = {
        "name": name,
        "first": first,
        "a_title": f"{'an' if title[0] in 'AEIOUaeiou' else 'a'} {title}",
        "title": title,
        "company": company,
        "years": _years_text(years),
        "domain": _CLUSTER_DOMAIN[primary],
        "city": location.city,
        "s1": labels[0],
        "s2": labels[1],
        "s3": labels[2],
    }
    if contributions:
        top = contributions[0]
        values["repo"] = top.repository
        values["topic"] = top.topics[0] if top.topics else labels[1]
        values["contribs"] = str(len(contributions))
    edu_ix = -1
    if education and rnd() < 0.7:
        edu = education[-1]
        values["degree"] = edu.degree
        values["field"] = edu.field or "Computer Science"
        values["school"] = edu.school
        edu_ix = int(rnd() * len(_SUMMARY_EDUCATION))
    with_contributions = bool(contributions)
    tail_ix = int(rnd() * len(_SUMMARY_TAILS[with_contributions]))
    key = ((opener_ix * 4 + edu_ix + 1) * 2 + with_contributions) * 128 + tail_ix
    template = _summary_templates.get(key)
    if template is None:
        parts = [_SUMMARY_OPENERS[opener_ix]]
        if edu_ix >= 0:
            parts.append(_SUMMARY_EDUCATION[edu_ix])
        parts.append(_SUMMARY_TAILS[with_contributions][tail_ix])
        template = _summary_templates[key] = " ".join(parts)
    return template.format_map(values)


def _build_education_pool(size: int = 4096) -> tuple[tuple[EducationEntry, ...], ...]:
    """0-3 degrees per person, in the order earned: a bachelor's level first, then master's, then doctorate."""
    rng = Random(7_100_425)
    rnd = rng.random
    pool = []
    for _ in range(size):
        entries = []
        n_entries = _EDU_COUNT_TABLE[int(rnd() * len(_EDU_COUNT_TABLE))]
        for level in range(n_entries):
            degree = rng.choice(_DEGREE_LADDER[level])
            while degree == "Associate's Degree" and n_entries > 1:
                degree = rng.choice(_DEGREE_LADDER[level])
            if "MBA" in degree:
                field_name = rng.choice(("Business Administration", "Technology Management", ""))
            else:
                field_name = rng.choice(_FIELDS) if rnd() < 0.96 else ""
            minor = rng.choice(_MINORS) if field_name and level == 0 and rnd() < 0.15 else ""
            entries.append(EducationEntry(degree=degree, field=field_name, minor=minor, school=rng.choice(_SCHOOLS)))
        pool.append(tuple(entries))
    return tuple(pool)


def _build_language_pools(size: int = 128) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """Per culture: spoken-language lists (a home language, usually English, sometimes one more; 1 in 10 none)."""
    rng = Random(7_100_426)
    rnd = rng.random
    pools = []
    for data in _CULTURE_DATA:
        native = data[2]
        pool = []
        for _ in range(size):
            languages: list[str] = []
            if rnd() >= 0.1:
                if native and rnd() < 0.85:
                    languages.append(rng.choice(native))
                if rnd() < 0.93:
                    languages.append("English")
                if rnd() < 0.15:
                    extra = rng.choice(_EXTRA_LANGUAGES)
                    if extra not in languages:
                        languages.append(extra)
                if rnd() < 0.5:
                    languages.sort()
            pool.append(tuple(languages))
        pools.append(tuple(pool))
    return tuple(pools)


def _build_badge_pool(size: int = 1024) -> tuple[tuple[str, ...], ...]:
    rng = Random(7_100_427)
    pool = []
    for _ in range(size):
        badges: list[str] = []
        for _ in range(rng.choice(_BADGE_COUNT_TABLE)):
            badge = _BADGES[rng.choice(_BADGE_TABLE)]
            if badge not in badges:
                badges.append(badge)
        pool.append(tuple(badges))
    return tuple(pool)


_EDUCATION_POOL = _build_education_pool(4096)
_LANGUAGE_POOLS = _build_language_pools(128)
_BADGE_POOL = _build_badge_pool(1024)


def generate_documents(count: int, *, seed: int) -> Iterator[ProfileDocument]:
    """Yield ``count`` fictional profiles; the same ``seed`` always yields the same documents.

    Documents are ``format="progai"`` and also carry an e-mail, a GitHub username and sometimes a website, which
    ``render_jsonresume`` uses. About one in a thousand repeats the name and location of an earlier one on purpose
    (the same person exported twice).
    """
    rng = Random(seed)
    rnd = rng.random
    gauss = rng.gauss
    # Module tables as locals: this loop runs a million times.
    culture_table, n_cultures = _CULTURE_TABLE, len(_CULTURE_TABLE)
    city_table, n_cities, cities = _CITY_TABLE, len(_CITY_TABLE), _CITIES
    cluster_table, n_cluster_table = _CLUSTER_TABLE, len(_CLUSTER_TABLE)
    years_table, n_years = _YEARS_TABLE, len(_YEARS_TABLE)
    titles, title_table, n_title_table = _TITLES, _TITLE_TABLE, len(_TITLE_TABLE)
    companies, n_companies = _COMPANIES, len(_COMPANIES)
    education_pool, language_pools, badge_pool = _EDUCATION_POOL, _LANGUAGE_POOLS, _BADGE_POOL
    contrib_counts, n_contrib_counts = _CONTRIB_COUNT_TABLE, len(_CONTRIB_COUNT_TABLE)
    domains, n_domains = _EMAIL_DOMAINS, len(_EMAIL_DOMAINS)
    pick_skills, pick_contributions, make_summary, flat = _pick_skills, _pick_contributions, _make_summary, _flat
    recent: list[tuple[str, str, str, Location]] = []
    for i in range(count):
        # --- who and where
        culture = culture_table[int(rnd() * n_cultures)]
        if recent and rnd() < 0.001:  # the same person once more
            first, last, name, location = recent[int(rnd() * len(recent))]
        else:
            first, last = _make_name(rnd, culture)
            name = f"{first} {last}"
            city = cities[city_table[int(rnd() * n_cities)]]
            location = city[1] if rnd() < 0.15 else city[0]
            if not i & 15:
                if len(recent) < 1000:
                    recent.append((first, last, name, location))
                else:
                    recent[(i >> 4) % 1000] = (first, last, name, location)
        given = first.partition(" ")[0]

        # --- stack and skills
        primary = cluster_table[int(rnd() * n_cluster_table)]
        r = rnd()
        if r < 0.35:
            secondary: tuple[int, ...] = ()
        else:
            other = cluster_table[int(rnd() * n_cluster_table)]
            secondary = () if other == primary else (other,)
            if r > 0.7:
                other = cluster_table[int(rnd() * n_cluster_table)]
                if other != primary and other not in secondary:
                    secondary += (other,)
        n_skills = int(gauss(20.0, 7.0))
        skills = pick_skills(rnd, primary, secondary, 3 if n_skills < 3 else 40 if n_skills > 40 else n_skills)
        skills_declared = len(skills) if rnd() < 0.6 else len(skills) + 1 + int(rnd() * 12)

        # --- career
        years_coding = years_table[int(rnd() * n_years)]
        years_employed: int | None = years_coding - int(rnd() * 4)
        if years_employed < 1 or rnd() < 0.03:
            years_employed = None
        title = titles[title_table[int(rnd() * n_title_table)]]
        r = rnd()
        if r < 0.12:
            company = ""
            headline = title
        else:
            company = companies[int(rnd() * (_BIG_COMPANIES if r < 0.56 else n_companies))]
            headline = f"{title} at {company}"

        # --- education, languages, badges: dealt from pre-drawn pools (immutable entries, shared)
        education = list(education_pool[int(rnd() * 4096)])
        languages = list(language_pools[culture][int(rnd() * 128)])
        badges = list(badge_pool[int(rnd() * 1024)])

        # --- contributions
        contributions = pick_contributions(
            rnd, contrib_counts[int(rnd() * n_contrib_counts)], (primary, *secondary), given, years_coding
        )
        n = len(contributions)
        contributions_declared = n if rnd() < 0.7 else n + 1 + int(rnd() * 15)

        # --- identifiers
        fslug = flat(given) or "dev"
        lslug = flat(last) or "dev"
        github = _github_username(rnd, fslug, lslug)
        r = rnd()
        local = f"{fslug}.{lslug}" if r < 0.5 else f"{fslug[0]}{lslug}" if r < 0.75 else github.replace("-", ".")
        email = f"{local}@{domains[int(rnd() * n_domains)]}"
        if rnd() < 0.25:
            website = f"https://{github}.github.io"
            urls = [f"https://github.com/{github}", website]
        else:
            website = ""
            urls = [f"https://github.com/{github}"]

        yield ProfileDocument(
            format="progai",
            name=name,
            headline=headline,
            title=title,
            company=company,
            location=location,
            badges=badges,
            summary=make_summary(
                rnd, name, given, title, company, location, years_coding, skills, education, contributions, primary
            ),
            years_coding=years_coding,
            years_employed=years_employed,
            education=education,
            spoken_languages=languages,
            skills_declared=skills_declared,
            skills=skills,
            programming_languages_declared=1 + int(rnd() * rnd() * 12),
            programming_languages=[],
            contributions_declared=contributions_declared,
            contributions=contributions,
            email=email,
            website=website,
            identifiers=Identifiers(github=github, email=email, urls=urls),
        )


# ---------------------------------------------------------------------------------------------------------------------
# Prog.AI text export.
# ---------------------------------------------------------------------------------------------------------------------


def _month_year(value: str) -> str:
    return f"{MONTHS[int(value[5:7]) - 1]} {value[:4]}"


def _duration(months: int) -> str:
    years, rest = divmod(months, 12)
    parts = []
    if years:
        parts.append("1 year" if years == 1 else f"{years} years")
    if rest or not years:
        parts.append("1 month" if rest == 1 else f"{rest} months")
    return " ".join(parts)


def _role_on_same_line(name: str, repository: str) -> bool:
    """Real exports print the role either under ``Role in this project:`` or right after the colon.

    A stable hash of person and repository decides, so a document always renders the same way (and the reference
    export comes out byte for byte).
    """
    return bool(zlib.crc32(f"{name}\n{repository}".encode()) & 1)


def render_progai(doc: ProfileDocument) -> str:
    """The document as a Prog.AI text export (no trailing newline, like the real files)."""
    lines = [doc.name]
    if doc.headline:
        lines.append(doc.headline)
    loc = doc.location
    location = ", ".join(part for part in (loc.city, loc.region, loc.country) if part)
    if location:
        lines.append(location)
    lines.append(SUMMARY_HEADING)
    # Each badge: its emoji on a line, then the badge name glued to whatever comes next.
    lines.append("".join(f"{BADGE_EMOJI.get(b, '🏅')}\n{b}" for b in doc.badges) + doc.summary)
    if doc.years_coding is not None:
        lines.append(f"{_years_text(doc.years_coding)} {YEARS_CODING_TEXT}")
    if doc.years_employed is not None:
        lines.append(f"{_years_text(doc.years_employed)} {YEARS_EMPLOYED_TEXT}")
    if doc.education:
        parts = []
        for e in doc.education:
            text = " ".join(p for p in (e.degree, e.field) if p)
            if e.minor:
                text = f"{text} minor in {e.minor}"
            parts.append(f"{text}, {text} at {e.school}")
        lines.append("".join(parts))
    if doc.spoken_languages:
        lines.append(", ".join(doc.spoken_languages))
    declared = doc.skills_declared if doc.skills_declared is not None else len(doc.skills)
    lines.append(f"{SKILLS_HEADING} ({declared})")
    lines.extend(f"{s.label}{s.score}" for s in doc.skills)
    declared = doc.programming_languages_declared
    lines.append(f"{LANGUAGES_HEADING} ({declared if declared is not None else len(doc.programming_languages)})")
    lines.extend(f"{s.label}{s.score}" for s in doc.programming_languages)
    declared = doc.contributions_declared
    lines.append(f"{CONTRIBUTIONS_HEADING} ({declared if declared is not None else len(doc.contributions)})")
    for c in doc.contributions:
        lines.append(c.repository)
        if c.start:
            lines.append(f"{_month_year(c.start)} - {_month_year(c.end) if c.end else PRESENT}")
        if c.repository_description:
            lines.append(c.repository_description)
        if _role_on_same_line(doc.name, c.repository):
            lines.append(f"{ROLE_LABEL}{c.role}")
        else:
            lines.append(ROLE_LABEL)
            lines.append(c.role)
        counts = []
        if c.commits:
            counts.append("1 commit" if c.commits == 1 else f"{c.commits} commits")
        if c.comments:
            counts.append("1 comment" if c.comments == 1 else f"{c.comments} comments")
        activity = ", ".join(counts)
        if c.active_months:
            activity = f"{activity} in {_duration(c.active_months)}"
        lines.append(f"{c.role}{STATS_LABEL}{activity}")
        if c.summary:
            lines.append(f"{CONTRIBUTION_SUMMARY_LABEL}{c.summary}")
        topics = c.topics_raw or "".join(c.topics)
        if topics:
            lines.append(topics)
    lines.append(ADVERTISEMENT)
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------------------------------
# JSON Resume.
# ---------------------------------------------------------------------------------------------------------------------

_SCHEMA_URL = "https://raw.githubusercontent.com/jsonresume/resume-schema/v1.0.0/schema.json"


def _jsonresume_dict(doc: ProfileDocument) -> dict:
    # Render-time variety comes from a stable hash of the person, so rendering stays a pure function of the document.
    h = zlib.crc32(f"{doc.name}|{doc.email}".encode())
    github = doc.identifiers.github or _slug(doc.name).replace("-", "")
    basics: dict = {"name": doc.name}
    if doc.headline:
        basics["label"] = doc.headline
    if doc.email:
        basics["email"] = doc.email
    if doc.website:
        basics["website" if h & 0x7 == 0 else "url"] = doc.website  # legacy key, as older resume-cli files have
    if doc.summary:
        basics["summary"] = doc.summary
    loc = doc.location
    location = {"city": loc.city}
    if loc.region:
        location["region"] = loc.region
    if loc.country_code:
        location["countryCode"] = loc.country_code
    basics["location"] = location
    profiles = [{"network": "GitHub", "username": github, "url": f"https://github.com/{github}"}]
    if (h >> 3) & 0x3 == 0:
        linkedin = _slug(doc.name)
        profiles.append({"network": "LinkedIn", "username": linkedin, "url": f"https://www.linkedin.com/in/{linkedin}"})
    basics["profiles"] = profiles
    resume: dict = {"$schema": _SCHEMA_URL, "basics": basics}

    work = []
    if doc.company:
        tenure = 1 + (h >> 5) % max(1, min(doc.years_employed or 1, 8))
        start = _NOW_INDEX - tenure * 12 - (h >> 9) % 12
        job: dict = {"company" if (h >> 13) & 0x7 == 0 else "name": doc.company, "position": doc.title or doc.headline}
        job["startDate"] = _ym(start)
        if (h >> 16) % 12 == 0:
            job["endDate"] = ""  # current job written with an empty end date: breaks the schema, as real files do
        job["summary"] = f"{doc.title or 'Engineer'} at {doc.company}."
        work.append(job)
        # An earlier employer for people who have been working a while.
        if (doc.years_employed or 0) > tenure + 1:
            previous = _COMPANIES[(h >> 20) % len(_COMPANIES)]
            if previous != doc.company:
                work.append(
                    {
                        "name": previous,
                        "position": _TITLES[(h >> 7) % 12],
                        "startDate": _ym(start - 12 * (1 + (h >> 24) % 4)),
                        "endDate": _ym(start - 1),
                    }
                )
    resume["work"] = work

    resume["education"] = [
        {"institution": e.school, "area": e.field, "studyType": e.degree}
        | ({"courses": [f"Minor in {e.minor}"]} if e.minor else {})
        for e in doc.education
    ]
    resume["awards"] = [{"title": b, "awarder": "Prog.AI"} for b in doc.badges]
    resume["skills"] = [
        {"name": s.label, "level": _LEVELS[s.score], "keywords": list(_ALIASES.get(s.label, ()))} for s in doc.skills
    ]
    resume["languages"] = [
        {"language": lang, "fluency": _FLUENCY[0] if k == 0 and lang != "English" else _FLUENCY[1 + (h + k) % 4]}
        for k, lang in enumerate(doc.spoken_languages)
    ]
    projects = []
    for c in doc.contributions:
        project: dict = {"name": c.repository}
        if c.repository_description:
            project["description"] = c.repository_description
        counts = []
        if c.commits:
            counts.append("1 commit" if c.commits == 1 else f"{c.commits} commits")
        if c.comments:
            counts.append("1 comment" if c.comments == 1 else f"{c.comments} comments")
        if counts:
            project["highlights"] = [", ".join(counts)]
        if c.summary:
            project["summary"] = c.summary
        if c.topics:
            project["keywords"] = list(c.topics)
        if c.start:
            project["startDate"] = c.start
        if c.end:
            project["endDate"] = c.end
        project["url"] = f"https://github.com/{c.repository}"
        if c.role:
            project["roles"] = [c.role]
        project["entity"] = c.repository.split("/", 1)[0]
        project["type"] = "open-source"
        projects.append(project)
    resume["projects"] = projects
    resume["meta"] = {"version": "v1.0.0", "canonical": "https://github.com/jsonresume/resume-schema"}
    return resume


def _pretty_json(value: object, indent: str = "") -> str:
    """``json.dumps(value, ensure_ascii=False, indent=2)``, byte for byte, several times faster: the standard
    library leaves its C encoder as soon as it is asked to indent. Handles what ``_jsonresume_dict`` builds."""
    if isinstance(value, str):
        return _encode_string(value)
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = indent + "  "
        items = [f"{inner}{_encode_string(k)}: {_pretty_json(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        inner = indent + "  "
        return "[\n" + ",\n".join(inner + _pretty_json(v, inner) for v in value) + "\n" + indent + "]"
    return json.dumps(value)


def render_jsonresume(doc: ProfileDocument) -> str:
    """The document as a JSON Resume (schema v1) file, indented, UTF-8 text, with a trailing newline."""
    return _pretty_json(_jsonresume_dict(doc)) + "\n"


# ---------------------------------------------------------------------------------------------------------------------
# Files.
# ---------------------------------------------------------------------------------------------------------------------


def write_profiles(out_dir: Path, count: int, *, seed: int, jsonresume_share: float = 0.2) -> int:
    """Write ``count`` profile files (``{index:07d}-{slug}.txt`` or ``.json``) into ``out_dir``; return how many.

    Indexes start at 1. Which files are JSON Resume is drawn from its own random stream, so the people are the same
    whatever the share.
    """
    if not 0.0 <= jsonresume_share <= 1.0:
        raise ValueError("jsonresume_share must be between 0 and 1")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    pick = Random(f"talentdb-synthetic-format-{seed}").random
    folder = os.fspath(out_dir)
    join = os.path.join
    written = 0
    for index, doc in enumerate(generate_documents(count, seed=seed), start=1):
        slug = _slug(doc.name)
        if pick() < jsonresume_share:
            doc.format = "jsonresume"
            path = join(folder, f"{index:07d}-{slug}.json")
            text = render_jsonresume(doc)
        else:
            path = join(folder, f"{index:07d}-{slug}.txt")
            text = render_progai(doc)
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        written += 1
    return written
