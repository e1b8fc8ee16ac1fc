/** Word lists for the demo data set: plausible research subjects, keywords, people and institutions. */
export const demoSubjects: { key: string; name: string; keywords: string[] }[] = [
  { key: "neuro", name: "Neuroscience", keywords: ["synaptic plasticity", "cortical circuits", "neuroimaging", "fMRI", "memory consolidation", "neurodegeneration", "optogenetics", "electrophysiology", "sleep", "motor control", "glia", "dopamine", "decision making", "connectomics", "neural coding", "hippocampus", "attention", "pain", "brain development", "EEG"] },
  { key: "climate", name: "Climate science", keywords: ["ocean circulation", "carbon cycle", "sea ice", "aerosols", "climate models", "paleoclimate", "extreme precipitation", "permafrost", "monsoon", "ice sheets", "downscaling", "heat waves", "attribution", "clouds", "sea level", "drought", "atmospheric chemistry", "land surface", "ENSO", "radiative forcing"] },
  { key: "materials", name: "Materials chemistry", keywords: ["perovskites", "battery cathodes", "metal-organic frameworks", "catalysis", "polymers", "thin films", "2D materials", "solid electrolytes", "corrosion", "nanoparticles", "crystal growth", "photovoltaics", "ceramics", "self-assembly", "DFT calculations", "hydrogen storage", "electrocatalysis", "coatings", "spectroscopy", "alloys"] },
  { key: "ml", name: "Machine learning", keywords: ["deep learning", "reinforcement learning", "graph neural networks", "causal inference", "recommender systems", "information retrieval", "language models", "computer vision", "federated learning", "fairness", "Bayesian optimization", "interpretability", "active learning", "time series", "probabilistic models", "optimization", "representation learning", "robustness", "learning to rank", "uncertainty quantification"] },
  { key: "health", name: "Public health", keywords: ["epidemiology", "vaccination", "health equity", "cohort studies", "infectious disease", "mental health", "nutrition", "air pollution", "health policy", "randomized trials", "antimicrobial resistance", "maternal health", "chronic disease", "surveillance", "health economics", "tobacco control", "obesity", "ageing", "global health", "screening"] },
  { key: "physics", name: "Particle physics", keywords: ["neutrinos", "dark matter", "Higgs boson", "collider physics", "lattice QCD", "cosmic rays", "detector design", "flavour physics", "gravitational waves", "supersymmetry", "calorimetry", "beyond the Standard Model", "top quark", "heavy ions", "trigger systems", "precision measurements", "axions", "jet substructure", "muon g-2", "effective field theory"] },
  { key: "ecology", name: "Ecology", keywords: ["biodiversity", "pollinators", "invasive species", "food webs", "forest dynamics", "coral reefs", "population genetics", "remote sensing", "species distribution", "wetlands", "soil microbiome", "migration", "conservation", "fisheries", "phenology", "landscape ecology", "plant traits", "predator-prey", "restoration", "eDNA"] },
  { key: "econ", name: "Economics", keywords: ["labour markets", "monetary policy", "inequality", "trade", "development economics", "behavioural economics", "public finance", "industrial organization", "innovation", "housing", "econometrics", "financial stability", "education economics", "migration economics", "auctions", "market design", "productivity", "energy economics", "health insurance", "macroeconomic models"] },
];

export const firstNames = ["Ada", "Amara", "Anders", "Aiko", "Beatriz", "Bilal", "Camille", "Chen", "Dara", "Dmitri", "Elif", "Emeka", "Farah", "Felix", "Greta", "Hana", "Hugo", "Ines", "Ivan", "Jamal", "Johanna", "Kai", "Kavya", "Lars", "Leila", "Lucia", "Mateo", "Mei", "Mikael", "Nadia", "Nia", "Omar", "Olga", "Paolo", "Priya", "Quentin", "Rafael", "Rania", "Rosa", "Sami", "Sanna", "Sofia", "Tariq", "Tomas", "Uma", "Valentina", "Victor", "Wen", "Xavier", "Yara", "Yusuf", "Zofia", "Aleksander", "Bruno", "Clara", "Diego", "Esther", "Fatima", "Gabriel", "Hiroshi"];
export const lastNames = ["Andersen", "Abebe", "Bauer", "Bianchi", "Castillo", "Chowdhury", "Da Silva", "Dubois", "Eriksson", "Fischer", "Garcia", "Haddad", "Hansen", "Ito", "Ivanova", "Jensen", "Kowalski", "Kim", "Larsen", "Lindqvist", "Mahmoud", "Martin", "Mensah", "Moreau", "Nakamura", "Nguyen", "Novak", "Okafor", "Olsen", "Patel", "Petrov", "Quinn", "Rahman", "Rossi", "Santos", "Schmidt", "Sato", "Svensson", "Tanaka", "Torres", "Usman", "Varga", "Virtanen", "Wagner", "Wang", "Weber", "Xu", "Yilmaz", "Zhang", "Zielinski", "Berg", "Costa", "Dahl", "Eze", "Ferreira", "Gupta", "Horvat", "Kaur", "Lopez", "Murphy"];
export const institutions = ["University of Oslo", "KTH Royal Institute of Technology", "ETH Zurich", "University of Copenhagen", "Sorbonne University", "University of Edinburgh", "Karolinska Institutet", "University of Helsinki", "TU Delft", "KU Leuven", "University of Bologna", "Charles University", "University of Warsaw", "Aarhus University", "Uppsala University", "University of Amsterdam", "Max Planck Institute", "CNRS", "University of Tartu", "University of Vienna", "Trinity College Dublin", "University of Barcelona", "University of Lisbon", "Ghent University", "University of Bergen", "Lund University", "University College London", "Imperial College London", "University of Tokyo", "McGill University", "University of Cape Town", "University of São Paulo", "Seoul National University", "University of Melbourne", "Weizmann Institute", "EPFL", "University of Geneva", "Heidelberg University", "Norwegian University of Science and Technology", "University of Zagreb"];
export const titlePatterns = [
  "{a} and {b}: new evidence from {c}",
  "Towards a unified account of {a} and {b}",
  "{a} under uncertainty: the role of {b}",
  "Scaling {a} with {b}",
  "Mechanisms linking {a} to {b}",
  "{a}, {b} and {c}: an integrated programme",
  "Rethinking {a} through {b}",
  "Measuring {a} in the age of {b}",
];
export const abstractSentences = [
  "This project investigates {a} with a particular focus on {b}.",
  "We combine methods from {b} and {c} to address open questions about {a}.",
  "Preliminary results suggest that {c} shapes {a} more than previously assumed.",
  "The team will build open data sets and tools for {b}.",
  "Outcomes will inform both theory and practice in {a}.",
  "A key risk is the availability of data on {c}; we mitigate it with a staged design.",
];
